/**
 * The segment cache of the render service: what the composition root starts, and the
 * pieces tests use directly. See docs/segment-cache.md.
 */
import type { ChangeSubscriber } from '@strata/web/server';
import type { Registry } from 'prom-client';
import type { RenderConfig } from '../config.js';
import { createCacheMetrics, SILENT_EVENTS, type CacheEvents } from './cache-metrics.js';
import { segmentCacheSettings } from './cache-settings.js';
import {
  createSegmentCache,
  type CacheLogger,
  type RenderSegmentCache,
  type SegmentCacheSettings,
} from './create-segment-cache.js';

export { createSegmentCache, type RenderSegmentCache, type SegmentCacheSettings };
export { createMemorySegmentStore } from './memory-segment-store.js';
export { createRedisSegmentStore, redisKeys } from './redis-segment-store.js';
export type { SegmentStore } from './segment-store.js';

/** A running cache and the change-feed subscription that invalidates it. */
export interface RunningSegmentCache {
  readonly cache: RenderSegmentCache;
  close(): Promise<void>;
}

/** Creates the cache for `config`, registers its metrics and follows the app's change feed. */
export function startSegmentCache(options: {
  readonly config: RenderConfig;
  readonly build: string;
  readonly logger: CacheLogger;
  /** The app's change feed (absent: only revalidations invalidate). */
  readonly watchChanges?: ((subscriber: ChangeSubscriber) => { stop(): void }) | undefined;
  readonly registry?: Registry;
  readonly now?: () => number;
  /** Overrides of the derived settings (tests: key prefix, shorter breaker). */
  readonly overrides?: Partial<SegmentCacheSettings>;
}): RunningSegmentCache {
  const settings = { ...segmentCacheSettings(options.config, options.build), ...options.overrides };
  let cache: RenderSegmentCache | undefined;
  const events: CacheEvents = options.registry
    ? createCacheMetrics(options.registry, () => cache?.memoryBytes() ?? 0)
    : SILENT_EVENTS;
  cache = createSegmentCache(settings, {
    logger: options.logger,
    events,
    ...(options.now && { now: options.now }),
  });
  const running = cache;
  const subscription = options.watchChanges?.({
    onTags: (tags) => running.invalidate(tags, 'watch'),
    onReset: () => running.dropBuild(options.build, 'reset'),
  });
  options.logger.info(
    {
      store: !settings.redis ? 'memory' : 'url' in settings.redis ? 'redis' : 'redis-sentinel',
      build: options.build,
    },
    'segment cache ready',
  );
  return {
    cache: running,
    async close() {
      subscription?.stop();
      await running.close();
    },
  };
}
