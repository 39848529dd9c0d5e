/**
 * Circuit breaker state as an immutable value with pure transitions (clock passed in): closed
 * until `failureThreshold` failures in a row, then open for `openMs`, then half-open, letting one
 * probe through; the probe's result closes or re-opens it. The caller holds the only reference.
 */

/** The breaker's configuration. */
export interface BreakerLimits {
  /** Consecutive failures that open the breaker. */
  readonly failureThreshold: number;
  /** How long it stays open before a probe may try again. */
  readonly openMs: number;
}

/** Where the breaker stands. */
export type BreakerState =
  | { readonly kind: 'closed'; readonly failures: number }
  | { readonly kind: 'open'; readonly until: number }
  | { readonly kind: 'half-open'; readonly probeSince: number };

/** A closed breaker with no failures. */
export const CLOSED: BreakerState = { kind: 'closed', failures: 0 };

/** Whether a call may go through now, and the state to keep if it does. */
export function admit(
  state: BreakerState,
  now: number,
  limits: BreakerLimits,
): { allowed: boolean; state: BreakerState } {
  if (state.kind === 'closed') return { allowed: true, state };
  if (state.kind === 'open') {
    if (now < state.until) return { allowed: false, state };
    return { allowed: true, state: { kind: 'half-open', probeSince: now } };
  }
  // One probe at a time; a probe that never reports back (lost) frees the slot after openMs.
  if (now - state.probeSince >= limits.openMs)
    return { allowed: true, state: { kind: 'half-open', probeSince: now } };
  return { allowed: false, state };
}

/** The state after a call succeeded. */
export function recordSuccess(): BreakerState {
  return CLOSED;
}

/** The state after a call failed. */
export function recordFailure(
  state: BreakerState,
  now: number,
  limits: BreakerLimits,
): BreakerState {
  if (state.kind === 'closed') {
    const failures = state.failures + 1;
    return failures >= limits.failureThreshold
      ? { kind: 'open', until: now + limits.openMs }
      : { kind: 'closed', failures };
  }
  return { kind: 'open', until: now + limits.openMs };
}

/** Full-jitter exponential backoff: a random delay in [0, min(cap, base·2^attempt)). */
export function backoffDelay(
  attempt: number,
  random: () => number,
  limits: { baseMs: number; capMs: number },
): number {
  const ceiling = Math.min(limits.capMs, limits.baseMs * 2 ** Math.min(attempt, 20));
  return Math.floor(random() * ceiling);
}
