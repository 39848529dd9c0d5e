/**
 * Trace headers for the requests a page makes before the Sentry SDK chunk runs (the viewport
 * prefetches go out right after hydration): the document's trace, so the server spans of those
 * requests join the page load's trace instead of starting orphan traces. Once the SDK runs, its
 * fetch instrumentation adds the headers itself and these stop.
 *
 * The parent span id is one propagation id for the page, as the SDK itself does when no span is
 * active: the page load's own span does not exist yet, and the SDK cannot be told its id.
 */
import type { DocumentTrace } from '../../protocol/telemetry-boot.js';

/** The headers a same-origin request carries: Sentry's and W3C Trace Context's. */
export type TraceHeaders = Readonly<Record<'sentry-trace' | 'traceparent', string>> & {
  readonly baggage?: string;
};

const SENTRY_TRACE = /^([0-9a-f]{32})-[0-9a-f]{16}(?:-([01]))?$/;

/** A new random span id (16 lowercase hex digits, never all zero). */
export function randomSpanId(fillRandom: (bytes: Uint8Array<ArrayBuffer>) => void): string {
  for (;;) {
    const bytes = new Uint8Array(8);
    fillRandom(bytes);
    const id = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    if (!/^0+$/.test(id)) return id;
  }
}

/**
 * The headers for the document's trace under `spanId`, keeping its sampling decision (none
 * when the server deferred it); undefined when the document's trace is not well formed.
 */
export function earlyTraceHeaders(trace: DocumentTrace, spanId: string): TraceHeaders | undefined {
  const match = SENTRY_TRACE.exec(trace.sentryTrace);
  if (!match) return undefined;
  const [, traceId, sampled] = match;
  return {
    'sentry-trace': `${traceId}-${spanId}${sampled === undefined ? '' : `-${sampled}`}`,
    traceparent: `00-${traceId}-${spanId}-${sampled === '1' ? '01' : '00'}`,
    ...(trace.baggage && { baggage: trace.baggage }),
  };
}

/**
 * `fetchImpl` with `headersNow()` added to every request, never replacing a header the caller
 * set. The runtime's fetches are all same-origin (payloads and actions), so no origin check.
 */
export function fetchWithTraceHeaders(
  fetchImpl: typeof fetch,
  headersNow: () => TraceHeaders | undefined,
): typeof fetch {
  return (input, init) => {
    const trace = headersNow();
    if (!trace) return fetchImpl(input, init);
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(trace))
      if (value !== undefined && !headers.has(name)) headers.set(name, value);
    return fetchImpl(input, { ...init, headers });
  };
}
