/**
 * Which finished transactions are not worth sending: navigations that never showed their page
 * (overtaken by another, or turned into a full page load) and anything named `/404`. Pure.
 */

/** Span attribute the router's tracing sets when a navigation ends. */
export const NAVIGATION_OUTCOME_ATTRIBUTE = 'strata.navigation.outcome';

// The SDK's own markers of an idle span that was cut short (the relay filters the same ones).
const INCOMPLETE_FINISH_REASONS = new Set([
  'cancelled',
  'documentHidden',
  'finalTimeout',
  'heartbeatFailed',
]);

interface TransactionLike {
  readonly transaction?: string;
  readonly contexts?: { trace?: { op?: string; data?: Record<string, unknown> } };
}

/** Why `event` must not be sent, or undefined to send it. */
export function unsentReason(event: TransactionLike): string | undefined {
  if (event.transaction === '/404') return 'not-found';
  const trace = event.contexts?.trace;
  if (trace?.op !== 'navigation') return undefined;
  const outcome = trace.data?.[NAVIGATION_OUTCOME_ATTRIBUTE];
  if (outcome === 'overtaken' || outcome === 'full-load') return outcome;
  const finish = trace.data?.['sentry.idle_span_finish_reason'];
  if (typeof finish === 'string' && INCOMPLETE_FINISH_REASONS.has(finish)) return 'incomplete';
  return undefined;
}
