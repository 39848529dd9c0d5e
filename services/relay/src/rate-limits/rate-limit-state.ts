/**
 * Current upstream rate limits per DSN key, as a small holder of immutable `RateLimits` values.
 * Written by the forwarder from upstream responses, read by ingest to drop limited items before
 * spooling and to tell clients the limits. Pure: time is passed in.
 */
import {
  pruneRateLimits,
  updateRateLimits,
  type LimitResponse,
  type RateLimits,
} from './rate-limits.js';

/** Rate-limit state of every DSN. */
export interface RateLimitState {
  get(dsnKey: string, now: number): RateLimits;
  update(dsnKey: string, response: LimitResponse, now: number): void;
  /** Every DSN key with active limits. */
  entries(now: number): Array<[string, RateLimits]>;
}

/** Creates an empty state. */
export function createRateLimitState(): RateLimitState {
  const byDsn = new Map<string, RateLimits>();
  return {
    get(dsnKey, now) {
      const limits = byDsn.get(dsnKey);
      if (!limits) return {};
      const pruned = pruneRateLimits(limits, now);
      if (Object.keys(pruned).length === 0) byDsn.delete(dsnKey);
      else byDsn.set(dsnKey, pruned);
      return pruned;
    },
    update(dsnKey, response, now) {
      const next = updateRateLimits(byDsn.get(dsnKey) ?? {}, response, now);
      if (Object.keys(next).length > 0) byDsn.set(dsnKey, next);
    },
    entries(now) {
      return [...byDsn.keys()].map((key) => [key, this.get(key, now)] as [string, RateLimits]);
    },
  };
}
