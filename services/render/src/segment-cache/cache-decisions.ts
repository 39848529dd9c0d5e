/**
 * The segment cache's decisions as pure functions of an entry's age, the request kind and the
 * clock: serve fresh, serve stale and regenerate, wait for another regenerator, or load. No I/O.
 */
import { FRESH_MS, KEPT_MS } from '@strata/web';

/** How usable an entry is at a given time. */
export type EntryAge = 'fresh' | 'stale' | 'expired';

/** Ages an entry stored at `storedAt` (ms) as seen at `now` (the same clock). */
export function classifyAge(storedAt: number, now: number): EntryAge {
  const age = now - storedAt;
  // A clock step backwards makes an entry look younger than zero: treat it as fresh, it is
  // bounded by the store's own expiry (KEPT_MS) anyway.
  if (age < FRESH_MS) return 'fresh';
  return age < KEPT_MS ? 'stale' : 'expired';
}

/** What to do with the entry a lookup found (or did not find). */
export type HitDecision =
  | { readonly serve: 'fresh' }
  | { readonly serve: 'stale'; readonly regenerate: boolean }
  | { readonly serve: 'none' };

/**
 * A fresh entry is served as is; a stale one is served while one regenerator refreshes it
 * (unless this process is already regenerating that key); an expired or missing one is a miss.
 * Prefetches follow the same rule: they may serve anything kept, and never add a second
 * regeneration of a key.
 */
export function decideOnEntry(
  storedAt: number | null,
  now: number,
  regeneratingHere: boolean,
): HitDecision {
  if (storedAt === null) return { serve: 'none' };
  const age = classifyAge(storedAt, now);
  if (age === 'fresh') return { serve: 'fresh' };
  if (age === 'stale') return { serve: 'stale', regenerate: !regeneratingHere };
  return { serve: 'none' };
}

/** Limits of waiting on a miss while another replica holds the regeneration lock. */
export interface WaitLimits {
  /** A navigation or document waits at most this long, then loads on its own. */
  readonly waitBudgetMs: number;
  /** The lock's expiry: a crashed regenerator frees the key after this long. */
  readonly lockTtlMs: number;
  /** First pause between polls; doubles up to `maxPollMs`. */
  readonly pollMs: number;
  readonly maxPollMs: number;
}

/** Next step of a lookup that missed and could not take the lock. */
export type WaitDecision =
  { readonly next: 'poll'; readonly delayMs: number } | { readonly next: 'load-alone' };

/**
 * Keeps polling (entry filled, or lock free to take) until the budget is spent. Prefetches
 * wait until the lock must have expired, so they never run a second load of a key while the
 * first one can still be running; navigations give up after `waitBudgetMs` because a person
 * is waiting.
 */
export function decideWhileWaiting(
  waitedMs: number,
  attempt: number,
  prefetch: boolean,
  limits: WaitLimits,
): WaitDecision {
  const budget = prefetch ? limits.lockTtlMs + limits.pollMs : limits.waitBudgetMs;
  if (waitedMs >= budget) return { next: 'load-alone' };
  const delay = Math.min(limits.maxPollMs, limits.pollMs * 2 ** Math.min(attempt, 16));
  return { next: 'poll', delayMs: Math.max(1, Math.min(delay, budget - waitedMs)) };
}
