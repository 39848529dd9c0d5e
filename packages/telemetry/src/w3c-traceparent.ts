/**
 * W3C Trace Context's `traceparent` in Sentry's terms, for callers instrumented with
 * OpenTelemetry rather than Sentry: they send only `traceparent`, which the Sentry SDK does not
 * continue by itself.
 */

// version 00: trace id, parent span id, flags (bit 0: sampled). All-zero ids are invalid.
const TRACEPARENT = /^00-(?!0{32})([0-9a-f]{32})-(?!0{16})([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The Sentry form of a W3C traceparent (`trace-span-sampled`), for a caller that sent only
 * traceparent; undefined when it is not a valid version-00 traceparent.
 */
export function sentryTraceFromTraceparent(traceparent: string | undefined): string | undefined {
  const match = TRACEPARENT.exec(traceparent ?? '');
  if (!match) return undefined;
  const sampled = (parseInt(match[3]!, 16) & 1) === 1 ? '1' : '0';
  return `${match[1]}-${match[2]}-${sampled}`;
}

/**
 * The `sentry-trace` an incoming HTTP request should get so the SDK continues its W3C trace:
 * only when it has a valid `traceparent` and no `sentry-trace` of its own (Sentry's header wins:
 * a caller sending both is a Sentry SDK, whose baggage belongs to that header). A repeated
 * `traceparent` (joined with commas, or an array) is invalid, as the W3C says.
 */
export function sentryTraceToAdd(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): string | undefined {
  if (headers['sentry-trace']) return undefined;
  const traceparent = headers['traceparent'];
  return typeof traceparent === 'string' ? sentryTraceFromTraceparent(traceparent) : undefined;
}
