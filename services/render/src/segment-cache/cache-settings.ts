/**
 * Maps the render service's configuration to the segment cache's settings.
 */
import type { RenderConfig } from '../config.js';
import type { SegmentCacheSettings } from './create-segment-cache.js';
import type { RedisTarget } from './redis-connections.js';

/** Where the shared store is: a URL, a Sentinel group, or nowhere (the in-process store). */
function redisTarget(config: RenderConfig): RedisTarget | undefined {
  if (config.REDIS_URL) return { url: config.REDIS_URL };
  if (config.REDIS_SENTINELS.length === 0) return undefined;
  return {
    sentinels: config.REDIS_SENTINELS,
    masterName: config.REDIS_SENTINEL_MASTER,
    password: config.REDIS_PASSWORD,
    sentinelPassword: config.REDIS_SENTINEL_PASSWORD,
    tls: config.REDIS_TLS,
    sentinelTls: config.REDIS_SENTINEL_TLS,
  };
}

/** The cache settings for `config`, serving `build`. */
export function segmentCacheSettings(config: RenderConfig, build: string): SegmentCacheSettings {
  return {
    redis: redisTarget(config),
    keyPrefix: config.REDIS_KEY_PREFIX,
    build,
    maxEntryBytes: config.SEGMENT_CACHE_MAX_ENTRY,
    memoryBytes: config.SEGMENT_CACHE_MEMORY,
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT,
    lockTtlMs: config.SEGMENT_CACHE_LOCK,
    waitBudgetMs: config.SEGMENT_CACHE_WAIT,
  };
}
