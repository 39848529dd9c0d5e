/**
 * Which data replica takes the next call, and when a replica that keeps failing is set aside:
 * pure functions over what the replica set tracks, so tests need no sockets or clock.
 *
 * A call goes to the replica with the fewest calls in flight among the best-placed ones: first
 * replicas that are connected and not ejected, then those still connecting, then the rest (a
 * call on a lost connection reopens it, so a lone replica is always tried). Ties rotate, so
 * equal replicas share calls evenly.
 */
import type { ConnectionState } from '../transport/http2-connection.js';

/** What the choice reads of a replica. */
export interface ReplicaStanding {
  readonly state: ConnectionState;
  /** Calls in flight on it. */
  readonly active: number;
  /** Date.now() until which it is set aside (0: never). */
  readonly ejectedUntil: number;
}

/** When failures set a replica aside, and for how long. */
export interface EjectionPolicy {
  /** Failed calls in a row that eject a replica. */
  readonly failuresToEject: number;
  /** First ejection; each ejection in a row doubles it, up to `maxEjectionMs`. */
  readonly ejectionMs: number;
  readonly maxEjectionMs: number;
}

export const DEFAULT_EJECTION: EjectionPolicy = {
  failuresToEject: 3,
  ejectionMs: 1_000,
  maxEjectionMs: 30_000,
};

function placement(replica: ReplicaStanding, now: number): number {
  if (replica.ejectedUntil > now || replica.state === 'down') return 2;
  return replica.state === 'ready' ? 0 : 1;
}

/**
 * The replica for the next call, or undefined when there is none. `turn` is a counter the caller
 * advances per call: ties go to the first tied replica at or after `turn`.
 */
export function chooseReplica<R extends ReplicaStanding>(
  replicas: readonly R[],
  now: number,
  turn: number,
): R | undefined {
  let best: R | undefined;
  let bestPlace = Infinity;
  const count = replicas.length;
  for (let step = 0; step < count; step++) {
    const replica = replicas[(turn + step) % count]!;
    const place = placement(replica, now);
    if (place < bestPlace || (place === bestPlace && replica.active < best!.active)) {
      best = replica;
      bestPlace = place;
    }
  }
  return best;
}

/** A replica's failure record. */
export interface FailureRecord {
  readonly failuresInRow: number;
  readonly ejectionsInRow: number;
  readonly ejectedUntil: number;
}

export const NO_FAILURES: FailureRecord = { failuresInRow: 0, ejectionsInRow: 0, ejectedUntil: 0 };

/**
 * The record after a call's outcome. `failed` means the replica could not serve it (unavailable,
 * internal error, deadline): a caller's mistake such as INVALID_ARGUMENT is a success here.
 * A success after an ejection clears the record: the replica has come back.
 */
export function afterOutcome(
  record: FailureRecord,
  failed: boolean,
  now: number,
  policy: EjectionPolicy = DEFAULT_EJECTION,
): FailureRecord {
  if (!failed)
    return record.failuresInRow === 0 && record.ejectionsInRow === 0 ? record : NO_FAILURES;
  if (record.ejectedUntil > now) return record; // calls that were in flight when it was ejected
  const failuresInRow = record.failuresInRow + 1;
  if (failuresInRow < policy.failuresToEject) return { ...record, failuresInRow };
  const ejectionMs = Math.min(policy.maxEjectionMs, policy.ejectionMs * 2 ** record.ejectionsInRow);
  return {
    failuresInRow: 0,
    ejectionsInRow: record.ejectionsInRow + 1,
    ejectedUntil: now + ejectionMs,
  };
}
