/**
 * Opens the two ioredis connections the shared cache uses: one for commands (short timeouts, no
 * offline queue, so a down Redis fails calls at once instead of queueing them) and one for
 * pub/sub. Both reconnect on their own with capped backoff; errors become log lines, not crashes.
 */
import { Redis, type RedisOptions } from 'ioredis';

/** The cache's connections. */
export interface RedisConnections {
  readonly commands: Redis;
  readonly subscriber: Redis;
  close(): Promise<void>;
}

// Reconnect attempts back off to at most this; the breaker decides when calls go out again.
const MAX_RECONNECT_DELAY_MS = 2000;

/** Opens both connections to `url` (returns at once; they connect in the background). */
export function openRedisConnections(
  url: string,
  commandTimeoutMs: number,
  logger: { warn(details: object, message: string): void },
): RedisConnections {
  const options: RedisOptions = {
    commandTimeout: commandTimeoutMs,
    connectTimeout: Math.max(1000, commandTimeoutMs * 4),
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(MAX_RECONNECT_DELAY_MS, 50 * 2 ** Math.min(attempt, 6)),
  };
  const commands = new Redis(url, { ...options, connectionName: 'strata-render-cache' });
  // A subscriber sends nothing but (re)subscriptions; no command timeout applies there.
  const subscriber = new Redis(url, {
    ...options,
    commandTimeout: undefined,
    connectionName: 'strata-render-cache-sub',
  });
  let lastLogged = 0;
  const onError = (error: Error) => {
    // Reconnect loops raise an error per attempt: one line every 10 s is enough.
    if (Date.now() - lastLogged < 10_000) return;
    lastLogged = Date.now();
    logger.warn({ err: error }, 'redis connection error');
  };
  commands.on('error', onError);
  subscriber.on('error', onError);
  return {
    commands,
    subscriber,
    async close() {
      await Promise.all(
        [commands, subscriber].map((client) => client.quit().catch(() => client.disconnect())),
      );
    },
  };
}
