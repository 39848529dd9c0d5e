/**
 * Which Redis server the cache is talking to, checked after every (re)connection before the
 * cache trusts the connection again. A reconnect may reach another server: a replica Sentinel
 * promoted (writes the old master took but never replicated are gone) or a restarted Redis
 * (everything is gone, the invalidation counter included). The server's `run_id` (INFO server)
 * tells: compared with the one this process saw last, and with the one recorded in Redis by the
 * last replica that checked (so a process that starts after a failover notices it too). On a
 * change the store starts a new epoch (RESET_SERVER): every entry written before is unusable.
 * Runs once per connection, never per call; from the moment a connection is ready until its
 * check has passed, the store is held (calls before that fail anyway: there is no offline queue,
 * so the breaker sees them as it always did).
 */
import type { Redis } from 'ioredis';
import type { RedisSegmentStore } from './redis-segment-store.js';

/** What a passed check found. */
export interface ServerTrusted {
  readonly runId: string;
  /** The run_id this process saw before, if any. */
  readonly previousRunId: string | undefined;
  /** True when the store started a new epoch (the data predates this server). */
  readonly reset: boolean;
}

/** What the check reports to the cache. */
export interface ServerCheckListener {
  /** A connection is ready, not yet checked: stop using the store until `onTrusted`. */
  onHold(): void;
  onTrusted(result: ServerTrusted): void;
  onCheckFailed(error: unknown): void;
}

/** A running check. */
export interface ServerCheck {
  /** True once the current connection passed its check. */
  trusted(): boolean;
  stop(): void;
}

const RUN_ID = /^run_id:([0-9a-f]+)\r?$/m;

/** The run_id in an INFO server reply (throws if it has none). */
export function parseRunId(info: string): string {
  const runId = RUN_ID.exec(info)?.[1];
  if (!runId) throw new Error('INFO server has no run_id');
  return runId;
}

/** Watches `redis` (the commands connection); checks now if it is already connected. */
export function watchRedisServer(options: {
  readonly redis: Redis;
  readonly store: RedisSegmentStore;
  readonly listener: ServerCheckListener;
  /** Pause before checking again when a check failed on a connection that stayed up. */
  readonly retryMs: number;
}): ServerCheck {
  const { redis, store, listener } = options;
  let lastRunId: string | undefined;
  // Every close and ready starts a new generation: a check of an older one is ignored.
  let generation = 0;
  let trusted = false;
  let retry: NodeJS.Timeout | undefined;

  async function check(checked: number) {
    try {
      const runId = parseRunId(await redis.info('server'));
      const previousRunId = lastRunId;
      const moved = previousRunId !== undefined && previousRunId !== runId;
      const reset = await store.adoptServer(runId, moved);
      lastRunId = runId;
      if (checked !== generation) return;
      trusted = true;
      listener.onTrusted({ runId, previousRunId, reset });
    } catch (error) {
      if (checked !== generation) return;
      listener.onCheckFailed(error);
      if (redis.status === 'ready')
        retry = setTimeout(() => {
          if (checked === generation) void check(checked);
        }, options.retryMs);
    }
  }

  // 'ready' listeners run before any other code can send a command on the new connection.
  const onReady = () => {
    generation += 1;
    trusted = false;
    listener.onHold();
    void check(generation);
  };
  const onClose = () => {
    generation += 1;
    trusted = false;
    clearTimeout(retry);
  };
  redis.on('ready', onReady);
  redis.on('close', onClose);
  if (redis.status === 'ready') onReady();

  return {
    trusted: () => trusted,
    stop() {
      generation += 1;
      clearTimeout(retry);
      redis.off('ready', onReady);
      redis.off('close', onClose);
    },
  };
}
