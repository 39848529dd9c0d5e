/**
 * Assembles the segment cache from settings: the Redis store (with a front cache per replica
 * and pub/sub) when a Redis (URL or Sentinel group) is given, the in-process store otherwise; the
 * breaker and timeouts around it, and the check of the server after every reconnect; the
 * invalidator and the resolver. Called by the composition root (and
 * tests); opens connections only when called.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SegmentCache } from '@strata/web/server';
import type { CacheEvents, InvalidationSource } from './cache-metrics.js';
import { createInvalidator } from './cache-invalidation.js';
import { createFrontCache, type FrontCache } from './front-cache.js';
import { guardStore, StoreUnavailable } from './guarded-store.js';
import { createRedisInvalidationBus, type InvalidationBus } from './invalidation-bus.js';
import { createMemorySegmentStore } from './memory-segment-store.js';
import type { RedisTarget } from '@strata/redis';
import { openRedisConnections } from './redis-connections.js';
import { createRedisSegmentStore, DEFAULT_KEY_PREFIX, redisKeys } from './redis-segment-store.js';
import { watchRedisServer, type ServerCheckListener } from './server-check.js';
import { createSegmentResolver } from './shared-segment-cache.js';
import type { SegmentStore } from './segment-store.js';

/** Settings of the cache (from the service configuration). */
export interface SegmentCacheSettings {
  /** Unset: the in-process store. */
  readonly redis?: RedisTarget | undefined;
  readonly keyPrefix?: string;
  /** The build this replica serves. */
  readonly build: string;
  readonly maxEntryBytes: number;
  /** The front cache's budget with Redis; the whole store's without. */
  readonly memoryBytes: number;
  readonly commandTimeoutMs: number;
  /** Longest a regeneration may hold a key (more than the slowest load). */
  readonly lockTtlMs: number;
  /** Longest a navigation waits for another replica's regeneration. */
  readonly waitBudgetMs: number;
  readonly breaker?: { readonly failureThreshold: number; readonly openMs: number };
}

/** Where the cache logs (pino fits). */
export interface CacheLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** The cache as the render service uses it. */
export interface RenderSegmentCache extends SegmentCache {
  /** Removes every entry carrying one of `tags`, on every replica. */
  invalidate(tags: readonly string[], source?: InvalidationSource): Promise<void>;
  /** Makes every entry of `build` unusable, on every replica. */
  dropBuild(build: string, source?: InvalidationSource): Promise<void>;
  /** True while the shared store answers (breaker closed). */
  healthy(): boolean;
  /** Bytes held in this process (front cache, or the whole in-process store). */
  memoryBytes(): number;
  /**
   * Resolves once Redis is connected and subscribed, or after `timeoutMs` (a down Redis must
   * not stop the service from starting: it serves uncached until Redis answers).
   */
  ready(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Creates the cache; `now` and `random` default to the real clock and Math.random. */
export function createSegmentCache(
  settings: SegmentCacheSettings,
  deps: {
    readonly logger: CacheLogger;
    readonly events: CacheEvents;
    readonly now?: () => number;
  },
): RenderSegmentCache {
  const { logger, events } = deps;
  const now = deps.now ?? Date.now;
  let memoryBytes = () => 0;
  let backing: SegmentStore;
  let front: FrontCache | undefined;
  let bus: InvalidationBus | undefined;
  let closeConnections = async () => undefined as void;
  let connected = () => true;
  let onRemote: Parameters<typeof createRedisInvalidationBus>[0]['listener'] | undefined;
  let onServer: ServerCheckListener | undefined;
  let stopServerCheck = () => undefined as void;

  if (settings.redis) {
    const connections = openRedisConnections(settings.redis, settings.commandTimeoutMs, logger);
    const prefix = settings.keyPrefix ?? DEFAULT_KEY_PREFIX;
    const redisStore = createRedisSegmentStore(connections.commands, prefix);
    backing = redisStore;
    const frontCache = createFrontCache(settings.memoryBytes);
    front = frontCache;
    memoryBytes = () => frontCache.bytes();
    bus = createRedisInvalidationBus({
      publisher: connections.commands,
      subscriber: connections.subscriber,
      channel: redisKeys(prefix).channel,
      origin: randomUUID(),
      listener: {
        onInvalidation: (invalidation) => onRemote?.onInvalidation(invalidation),
        onGap: () => onRemote?.onGap(),
      },
    });
    closeConnections = () => connections.close();
    const serverCheck = watchRedisServer({
      redis: connections.commands,
      store: redisStore,
      retryMs: Math.max(100, settings.commandTimeoutMs),
      listener: {
        onHold: () => onServer?.onHold(),
        onTrusted: (result) => onServer?.onTrusted(result),
        onCheckFailed: (error) => onServer?.onCheckFailed(error),
      },
    });
    stopServerCheck = () => serverCheck.stop();
    const subscription = bus;
    connected = () =>
      connections.commands.status === 'ready' && subscription.connected() && serverCheck.trusted();
  } else {
    const memory = createMemorySegmentStore({ maxBytes: settings.memoryBytes, now });
    backing = memory;
    memoryBytes = () => memory.bytes();
  }

  const breaker = settings.breaker ?? { failureThreshold: 3, openMs: 2000 };
  // Set below; the guard reports state changes that the invalidator acts on.
  let onStoreState: (kind: 'closed' | 'open' | 'half-open') => void = () => undefined;
  const store = guardStore(backing, {
    ...breaker,
    timeoutMs: settings.commandTimeoutMs,
    now,
    onError: (operation, error) => {
      if (error instanceof StoreUnavailable) return; // the breaker's own refusal
      events.error(operation);
    },
    onStateChange: (kind, cause) => {
      events.breaker(kind);
      if (kind === 'open')
        logger.warn(
          { err: cause, retryInMs: breaker.openMs },
          'segment cache store unavailable; serving uncached',
        );
      else if (kind === 'closed') logger.info({}, 'segment cache store available again');
      onStoreState(kind);
    },
  });

  const invalidator = createInvalidator({
    store,
    ...(front && { front }),
    ...(bus && { bus }),
    events,
    build: settings.build,
    onFailure: (what, error) =>
      logger.warn({ err: error, what }, 'segment cache invalidation failed'),
  });
  onRemote = {
    onInvalidation: (invalidation) => invalidator.onRemote(invalidation),
    onGap: () => invalidator.forgetFront(),
  };
  if (settings.redis) store.hold(); // until the first connection's server is checked
  onServer = {
    onHold() {
      store.hold();
      invalidator.forgetFront();
    },
    onTrusted({ runId, previousRunId, reset }) {
      if (reset) {
        // Like a missed change-feed sequence: nothing derived from the old server is trusted.
        events.invalidation('server-change');
        invalidator.forgetFront();
        const log = previousRunId ? logger.warn.bind(logger) : logger.info.bind(logger);
        log(
          { runId, previousRunId },
          'segment cache reset: Redis is another server than the data was written on',
        );
      }
      store.unhold();
      void invalidator.replay();
    },
    onCheckFailed: (error) =>
      logger.warn({ err: error }, 'segment cache could not check the Redis server; holding'),
  };
  onStoreState = (kind) => {
    // While the store is away this replica misses invalidations: its front starts over.
    invalidator.forgetFront();
    if (kind === 'closed') void invalidator.replay();
  };

  const resolver = createSegmentResolver({
    store,
    ...(front && { front }),
    frontUsable: () => store.healthy() && (bus?.connected() ?? false),
    events,
    now,
    newToken: randomUUID,
    sleep: (ms) => sleep(ms),
    limits: {
      maxEntryBytes: settings.maxEntryBytes,
      lockTtlMs: settings.lockTtlMs,
      waitBudgetMs: settings.waitBudgetMs,
      pollMs: 10,
      maxPollMs: 100,
    },
    onBackgroundError: (error) => logger.warn({ err: error }, 'segment regeneration failed'),
  });

  return {
    resolve: (lookup, load) => resolver.resolve(lookup, load),
    invalidate: (tags, source = 'revalidate') => invalidator.invalidate(tags, source),
    dropBuild: (build, source = 'reset') => invalidator.dropBuild(build, source),
    healthy: () => store.healthy(),
    memoryBytes: () => memoryBytes(),
    async ready(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!connected() && Date.now() < deadline) await sleep(10);
      return connected();
    },
    async close() {
      await resolver.drain(2000);
      stopServerCheck();
      await bus?.close();
      await store.close();
      await closeConnections();
    },
  };
}
