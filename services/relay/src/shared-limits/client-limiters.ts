/**
 * The relay's two request limits (per client address, per project key), built from the config:
 * shared by every replica through Redis when one is configured; otherwise kept in this process,
 * which admits its share of each (`ceil(limit / RELAY_REPLICAS)`), so replicas the gateway
 * spreads requests over admit about the configured total together, never more.
 */
import type { Redis } from 'ioredis';
import type { RelayConfig } from '../config.js';
import type { RelayMetrics } from '../metrics.js';
import type { ClientLimit } from '../rate-limits/client-limits.js';
import { createRequestLimiter, type RequestLimiter } from '../rate-limits/request-limiter.js';
import { createSharedRequestLimiter } from './shared-request-limiter.js';

/** Distinct client addresses whose request windows are remembered at once in this process. */
const MAX_LIMITED_ADDRESSES = 10_000;

/** Both limits; each undefined when switched off. */
export interface ClientLimiters {
  readonly address: RequestLimiter | undefined;
  readonly key: RequestLimiter | undefined;
}

/** Builds both limits; `redis` makes them shared. */
export function createClientLimiters(
  config: RelayConfig,
  redis: Redis | undefined,
  metrics: Pick<RelayMetrics, 'limitedLocally'>,
): ClientLimiters {
  const build = (limit: ClientLimit, perWindow: number, maxKeys: number) => {
    const settings = { limit: perWindow, windowMs: config.RELAY_RATE_LIMIT_WINDOW, maxKeys };
    if (!redis)
      return createRequestLimiter({ ...settings, limit: replicaShare(perWindow, config) });
    return createSharedRequestLimiter(
      redis,
      {
        ...settings,
        replicas: config.RELAY_REPLICAS,
        keyPrefix: `${config.RELAY_REDIS_KEY_PREFIX}${limit}:`,
      },
      () => metrics.limitedLocally(limit),
    );
  };
  return {
    address: build('address', config.RELAY_RATE_LIMIT_PER_ADDRESS, MAX_LIMITED_ADDRESSES),
    key: build('key', config.RELAY_RATE_LIMIT_PER_KEY, Math.max(1, config.RELAY_DSNS.length)),
  };
}

/** One replica's share of a limit (0, off, stays off). */
function replicaShare(limit: number, config: RelayConfig): number {
  return Math.ceil(limit / config.RELAY_REPLICAS);
}
