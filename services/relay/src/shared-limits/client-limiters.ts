/**
 * The relay's two request limits (per client address, per project key), built from the config:
 * kept in this process, or shared by every replica through Redis when one is configured.
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
    if (!redis) return createRequestLimiter(settings);
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
