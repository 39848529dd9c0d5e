/**
 * The segment cache of the render service: what the composition root starts, and the
 * pieces tests use directly. See docs/segment-cache.md.
 */
import type { CatalogClient } from '@strata/catalog-client';
import type { Registry } from 'prom-client';
import type { RenderConfig } from '../config.js';
import { createCacheMetrics, SILENT_EVENTS, type CacheEvents } from './cache-metrics.js';
import { segmentCacheSettings } from './cache-settings.js';
import { createChangeWatcher, type ChangeWatcher } from './change-watcher.js';
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
  readonly watcher: ChangeWatcher;
  close(): Promise<void>;
}

/** Creates the cache for `config`, registers its metrics and follows the change feed. */
export function startSegmentCache(options: {
  readonly config: RenderConfig;
  readonly build: string;
  readonly logger: CacheLogger;
  /** Its change feed reaches the cache. */
  readonly catalog: Pick<CatalogClient, 'watchChanges'>;
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
  const watcher = createChangeWatcher({
    client: options.catalog,
    onTags: (tags) => running.invalidate(tags, 'watch'),
    onReset: () => running.dropBuild(options.build, 'reset'),
    logger: options.logger,
    random: Math.random,
  });
  watcher.start();
  options.logger.info(
    { store: settings.redisUrl ? 'redis' : 'memory', build: options.build },
    'segment cache ready',
  );
  return {
    cache: running,
    watcher,
    async close() {
      watcher.stop();
      await running.close();
    },
  };
}
