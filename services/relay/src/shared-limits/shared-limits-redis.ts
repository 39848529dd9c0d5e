/**
 * The Redis connection behind the shared request limits, when REDIS_URL or REDIS_SENTINELS is
 * set: one client with the relay's short command deadline, so a slow or absent Redis makes the
 * limits decide locally instead of holding requests.
 */
import { openRedisClient, redisTargetFrom } from '@strata/redis';
import type { Redis } from 'ioredis';
import type { RelayConfig } from '../config.js';

/** Opens the client (it connects in the background), or undefined without a configured Redis. */
export function openSharedLimitsRedis(
  config: RelayConfig,
  logger: { warn(details: object, message: string): void },
): Redis | undefined {
  const target = redisTargetFrom(config);
  if (!target) return undefined;
  return openRedisClient(target, {
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT,
    connectTimeoutMs: Math.max(1000, config.REDIS_COMMAND_TIMEOUT * 4),
    connectionName: 'strata-relay-limits',
    // Every request asks twice (address, key), many requests per turn: one write for them all.
    autoPipelining: true,
    logger,
  });
}
