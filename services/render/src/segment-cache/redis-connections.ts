/**
 * The two Redis connections the shared cache uses: one for commands (the configured deadline,
 * no offline queue, so a down Redis fails calls at once) and one for pub/sub (no deadline: it
 * only subscribes). How each connects and reconnects is @strata/redis's.
 */
import { closeRedisClient, openRedisClient, type RedisTarget } from '@strata/redis';
import type { Redis } from 'ioredis';

/** The cache's connections. */
export interface RedisConnections {
  readonly commands: Redis;
  readonly subscriber: Redis;
  close(): Promise<void>;
}

/** Opens both connections to `target` (returns at once; they connect in the background). */
export function openRedisConnections(
  target: RedisTarget,
  commandTimeoutMs: number,
  logger: { warn(details: object, message: string): void },
): RedisConnections {
  const connectTimeoutMs = Math.max(1000, commandTimeoutMs * 4);
  const commands = openRedisClient(target, {
    commandTimeoutMs,
    connectTimeoutMs,
    connectionName: 'strata-render-cache',
    logger,
  });
  const subscriber = openRedisClient(target, {
    commandTimeoutMs: undefined,
    connectTimeoutMs,
    connectionName: 'strata-render-cache-sub',
    logger,
  });
  return {
    commands,
    subscriber,
    close: async () => {
      await Promise.all([commands, subscriber].map(closeRedisClient));
    },
  };
}
