/**
 * W3C `tracestate`: vendor entries that travel with `traceparent`. Strata has no entry of its
 * own, so it passes the caller's on unchanged with the calls it makes in the caller's trace, as
 * the W3C asks of a participant that continues a trace.
 */
import { sentryTraceFromTraceparent } from './w3c-traceparent.js';

// The W3C's limits: at most 32 list members; 512 characters is what a participant must pass on.
const MAX_LENGTH = 512;
const MAX_MEMBERS = 32;
// key=value members separated by commas (optional spaces); printable ASCII, no '=' or ',' in
// values. Loose on keys: a vendor's entry is not ours to judge beyond the header's shape.
const MEMBER =
  /^[a-z0-9][a-z0-9_\-*/@]{0,255}=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/**
 * The `tracestate` to send on with outgoing calls for a request in trace `traceId`: the caller's,
 * when it also sent a valid `traceparent` in that trace (the trace was continued from it) and the
 * header is well formed and within the limits; undefined otherwise.
 */
export function tracestateToForward(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  traceId: string,
): string | undefined {
  const { traceparent, tracestate } = headers;
  if (typeof traceparent !== 'string' || typeof tracestate !== 'string') return undefined;
  if (sentryTraceFromTraceparent(traceparent)?.slice(0, 32) !== traceId) return undefined;
  if (tracestate.length > MAX_LENGTH) return undefined;
  const members = tracestate
    .split(',')
    .map((member) => member.trim())
    .filter((member) => member !== '');
  if (members.length === 0 || members.length > MAX_MEMBERS) return undefined;
  return members.every((member) => MEMBER.test(member)) ? members.join(',') : undefined;
}
