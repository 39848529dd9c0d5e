/**
 * A request limit shared by every relay replica: the count of each key's window lives in Redis
 * (rate-limiter-flexible's fixed window: one atomic script per request), so a client that spreads
 * its requests over replicas meets one limit, not one per replica. While Redis cannot answer
 * (down, failing over, slower than its command deadline) each replica decides alone with its
 * share of the limit (`limit / replicas`, rounded up), so all of them together still admit at
 * most about the configured total, never a replica's full limit each.
 */
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { createRequestLimiter, type RequestLimiter } from '../rate-limits/request-limiter.js';

/** A shared limit's settings; `limit` 0 switches it off. */
export interface SharedLimitOptions {
  readonly limit: number;
  readonly windowMs: number;
  /** Replicas expected to share the limit: each one's share when deciding alone. */
  readonly replicas: number;
  /** Most keys the fallback remembers at once. */
  readonly maxKeys: number;
  /** Namespace of this limit's keys in Redis (e.g. `strata:relay:v1:address:`). */
  readonly keyPrefix: string;
}

/** Called once per decision made without Redis (the relay counts them). */
export type OnLocalDecision = () => void;

/** A limit that asks Redis first; undefined when `limit` is 0. */
export function createSharedRequestLimiter(
  redis: Redis,
  options: SharedLimitOptions,
  onLocalDecision: OnLocalDecision,
): RequestLimiter | undefined {
  if (options.limit === 0) return undefined;
  const shared = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: options.keyPrefix,
    points: options.limit,
    // Redis expiries are whole seconds.
    duration: Math.max(1, Math.ceil(options.windowMs / 1000)),
    // A Redis that is not connected is not waited for: the request is decided here at once.
    rejectIfRedisNotReady: true,
  });
  const local = createRequestLimiter({
    limit: Math.ceil(options.limit / Math.max(1, options.replicas)),
    windowMs: options.windowMs,
    maxKeys: options.maxKeys,
  })!;
  const decideLocally = (key: string, now: number): number => {
    onLocalDecision();
    return local.take(key, now);
  };
  return {
    take(key, now) {
      return shared.consume(key).then(
        () => 0,
        (refusal: unknown) =>
          refusal instanceof RateLimiterRes
            ? Math.max(1, refusal.msBeforeNext)
            : decideLocally(key, now),
      );
    },
  };
}
