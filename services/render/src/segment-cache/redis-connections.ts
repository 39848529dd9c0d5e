/**
 * Opens the two ioredis connections the shared cache uses: one for commands (short timeouts, no
 * offline queue, so a down Redis fails calls at once instead of queueing them) and one for
 * pub/sub. Both reconnect on their own with capped backoff; errors become log lines, not crashes.
 * The target is one Redis (a URL) or a Sentinel group: then every (re)connection asks the
 * sentinels where the master is, and a failover they announce closes the connections at once.
 */
import { Redis, type RedisOptions } from 'ioredis';

/** One Redis, by URL (the password and TLS are in it). */
export interface RedisUrlTarget {
  readonly url: string;
}

/** A master found through Sentinel. */
export interface RedisSentinelTarget {
  readonly sentinels: readonly { readonly host: string; readonly port: number }[];
  /** The master group's name in the sentinels' configuration. */
  readonly masterName: string;
  /** Of the master and its replicas. */
  readonly password?: string | undefined;
  /** Of the sentinels themselves. */
  readonly sentinelPassword?: string | undefined;
  /** TLS to the master (system CAs, plus NODE_EXTRA_CA_CERTS). */
  readonly tls: boolean;
  /** TLS to the sentinels. */
  readonly sentinelTls: boolean;
}

/** Where the shared cache lives. */
export type RedisTarget = RedisUrlTarget | RedisSentinelTarget;

/** The cache's connections. */
export interface RedisConnections {
  readonly commands: Redis;
  readonly subscriber: Redis;
  close(): Promise<void>;
}

// Reconnect attempts back off to at most this; the breaker decides when calls go out again.
const MAX_RECONNECT_DELAY_MS = 2000;
const READONLY_REPLY = /^READONLY\b/;

/** The ioredis options that reach `target` (connection behaviour excluded). */
function targetOptions(target: RedisSentinelTarget, timeoutMs: number): RedisOptions {
  return {
    sentinels: target.sentinels.map(({ host, port }) => ({ host, port })),
    name: target.masterName,
    password: target.password,
    sentinelPassword: target.sentinelPassword,
    ...(target.tls && { tls: {}, enableTLSForSentinelMode: true }),
    ...(target.sentinelTls && { sentinelTLS: {} }),
    sentinelCommandTimeout: timeoutMs,
    sentinelRetryStrategy: (attempt) => Math.min(MAX_RECONNECT_DELAY_MS, 50 * 2 ** attempt),
    // A killed master sends no RST: without the sentinels' +switch-master the connection would
    // wait for TCP to give up. The detector subscribes to them and reconnects on a failover.
    failoverDetector: true,
  };
}

/** Opens both connections to `target` (returns at once; they connect in the background). */
export function openRedisConnections(
  target: RedisTarget,
  commandTimeoutMs: number,
  logger: { warn(details: object, message: string): void },
): RedisConnections {
  const connectTimeout = Math.max(1000, commandTimeoutMs * 4);
  const options: RedisOptions = {
    commandTimeout: commandTimeoutMs,
    connectTimeout,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(MAX_RECONNECT_DELAY_MS, 50 * 2 ** Math.min(attempt, 6)),
    // A master demoted under us answers writes with READONLY: reconnect, and the sentinels
    // name the new master (with a URL this only reconnects to the same server).
    reconnectOnError: (error) => READONLY_REPLY.test(error.message),
    ...('url' in target ? {} : targetOptions(target, connectTimeout)),
  };
  const open = (extra: RedisOptions) =>
    'url' in target
      ? new Redis(target.url, { ...options, ...extra })
      : new Redis({ ...options, ...extra });
  const commands = open({ connectionName: 'strata-render-cache' });
  // A subscriber sends nothing but (re)subscriptions; no command timeout applies there.
  const subscriber = open({
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
  for (const client of [commands, subscriber]) {
    client.on('error', onError);
    client.on('sentinelError', onError);
  }
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
