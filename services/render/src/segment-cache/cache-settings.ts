/**
 * Maps the render service's configuration to the segment cache's settings.
 */
import { redisTargetFrom } from '@strata/redis';
import type { RenderConfig } from '../config.js';
import type { SegmentCacheSettings } from './create-segment-cache.js';

/** The cache settings for `config`, serving `build`. */
export function segmentCacheSettings(config: RenderConfig, build: string): SegmentCacheSettings {
  return {
    redis: redisTargetFrom(config),
    keyPrefix: config.REDIS_KEY_PREFIX,
    build,
    maxEntryBytes: config.SEGMENT_CACHE_MAX_ENTRY,
    memoryBytes: config.SEGMENT_CACHE_MEMORY,
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT,
    lockTtlMs: config.SEGMENT_CACHE_LOCK,
    waitBudgetMs: config.SEGMENT_CACHE_WAIT,
  };
}
