/**
 * Opens an ioredis client the way every service wants it: short command timeouts and no offline
 * queue, so a Redis that is away fails calls at once instead of queueing them; reconnection on
 * its own with capped backoff; errors as rate-limited log lines, not crashes. The target is one
 * Redis (a URL) or a Sentinel group: then every (re)connection asks the sentinels where the
 * master is, and a failover they announce closes the connection at once.
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

/** Where the shared Redis is. */
export type RedisTarget = RedisUrlTarget | RedisSentinelTarget;

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

/** How one client behaves besides where it connects. */
export interface RedisClientOptions {
  /** Deadline of one command; undefined for a subscriber, which only (re)subscribes. */
  readonly commandTimeoutMs: number | undefined;
  /** Connect deadline and the sentinels' command deadline. */
  readonly connectTimeoutMs: number;
  /** Shown by `CLIENT LIST` on the server. */
  readonly connectionName: string;
  readonly logger: { warn(details: object, message: string): void };
  /** Commands issued in one event-loop turn go out as one write (many small, independent calls). */
  readonly autoPipelining?: boolean;
}

/** Opens one client to `target` (returns at once; it connects in the background). */
export function openRedisClient(target: RedisTarget, options: RedisClientOptions): Redis {
  const redisOptions: RedisOptions = {
    commandTimeout: options.commandTimeoutMs,
    connectTimeout: options.connectTimeoutMs,
    connectionName: options.connectionName,
    enableAutoPipelining: options.autoPipelining ?? false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(MAX_RECONNECT_DELAY_MS, 50 * 2 ** Math.min(attempt, 6)),
    // A master demoted under us answers writes with READONLY: reconnect, and the sentinels
    // name the new master (with a URL this only reconnects to the same server).
    reconnectOnError: (error) => READONLY_REPLY.test(error.message),
    ...('url' in target ? {} : targetOptions(target, options.connectTimeoutMs)),
  };
  const client = 'url' in target ? new Redis(target.url, redisOptions) : new Redis(redisOptions);
  let lastLogged = 0;
  const onError = (error: Error) => {
    // Reconnect loops raise an error per attempt: one line every 10 s is enough.
    if (Date.now() - lastLogged < 10_000) return;
    lastLogged = Date.now();
    options.logger.warn(
      { err: error, connection: options.connectionName },
      'redis connection error',
    );
  };
  client.on('error', onError);
  client.on('sentinelError', onError);
  return client;
}

/** Closes `client` politely, or at once when that fails. */
export async function closeRedisClient(client: Redis): Promise<void> {
  await client.quit().catch(() => client.disconnect());
}
