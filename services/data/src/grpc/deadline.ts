/**
 * Reads the caller's deadline so work can be bounded by it.
 */
import type { ServerSurfaceCall } from '@grpc/grpc-js/build/src/server-call.js';

/** Milliseconds left before the caller's deadline (Infinity without one). */
export function remainingMs(
  call: Pick<ServerSurfaceCall, 'getDeadline'>,
  now = Date.now(),
): number {
  const deadline = call.getDeadline();
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(at) ? at - now : Number.POSITIVE_INFINITY;
}
