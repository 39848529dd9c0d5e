/**
 * Maps the render service's configuration to the segment cache's settings, including the values
 * derived from others (the lock outlives the slowest data read with its retries).
 */
import type { RenderConfig } from '../config.js';
import type { SegmentCacheSettings } from './create-segment-cache.js';

// Page reads make up to 3 attempts, each with DATA_DEADLINE, plus backoff between them.
const READ_ATTEMPTS = 3;
const LOCK_MARGIN_MS = 1000;
const MIN_LOCK_TTL_MS = 5000;

/** The cache settings for `config`, serving `build`. */
export function segmentCacheSettings(config: RenderConfig, build: string): SegmentCacheSettings {
  return {
    redisUrl: config.REDIS_URL,
    keyPrefix: config.REDIS_KEY_PREFIX,
    build,
    maxEntryBytes: config.SEGMENT_CACHE_MAX_ENTRY,
    memoryBytes: config.SEGMENT_CACHE_MEMORY,
    commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT,
    lockTtlMs: Math.max(MIN_LOCK_TTL_MS, READ_ATTEMPTS * config.DATA_DEADLINE + LOCK_MARGIN_MS),
    waitBudgetMs: config.SEGMENT_CACHE_WAIT,
  };
}
