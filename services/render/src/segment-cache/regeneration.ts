/**
 * Running a loader on the cache's behalf, then keeping its result (keep-result.ts) with the
 * invalidation sequence read before it began: under the key's lock after a miss, in the
 * background after a stale hit (one per key in this process, and only with the lock), and
 * without a lock on the first run of a segment whose shape, hence key, nobody knows yet.
 */
import type { LoadedSegment, SegmentLookup } from '@strata/web/server';
import { classifyAge } from './cache-decisions.js';
import type { CacheEvents, RegenerationOutcome } from './cache-metrics.js';
import type { FrontCache } from './front-cache.js';
import type { FinishedLoad } from './keep-result.js';
import type { SegmentStore } from './segment-store.js';
import {
  orUnavailable,
  readUsableEntry,
  releaseLock,
  UNAVAILABLE,
  type Unavailable,
} from './store-fallback.js';

/** What regenerating needs. */
export interface RegeneratorDeps {
  readonly store: SegmentStore;
  /** Its epoch is read before loading, so a result that raced an invalidation stays out. */
  readonly front?: FrontCache;
  readonly events: CacheEvents;
  readonly now: () => number;
  readonly newToken: () => string;
  readonly lockTtlMs: number;
  readonly keep: (done: FinishedLoad) => Promise<RegenerationOutcome>;
  readonly onBackgroundError: (error: unknown) => void;
}

/** The loads the cache runs itself. */
export interface Regenerator {
  /**
   * Loads and keeps the result. `since` is the invalidation sequence read before loading;
   * UNAVAILABLE (unknown) means the result is not stored.
   */
  regenerate(
    lookup: SegmentLookup,
    load: () => Promise<LoadedSegment>,
    since: number | Unavailable,
  ): Promise<LoadedSegment>;
  /** `regenerate` while `token` holds the key's lock, released afterwards. */
  underLock(
    lookup: SegmentLookup,
    key: string,
    token: string,
    since: number,
    load: () => Promise<LoadedSegment>,
  ): Promise<LoadedSegment>;
  /** The first run of a segment whose shape nobody knows yet in this build (a miss). */
  firstRun(lookup: SegmentLookup, load: () => Promise<LoadedSegment>): Promise<LoadedSegment>;
  /** Whether this process is regenerating `id` (build and storage key) in the background. */
  isRunning(id: string): boolean;
  /** After a stale hit: refreshes `key` in the background, if this replica gets its lock. */
  inBackground(
    id: string,
    lookup: SegmentLookup,
    key: string,
    load: () => Promise<LoadedSegment>,
  ): void;
  /** Waits for background regenerations (at most `timeoutMs`). */
  drain(timeoutMs: number): Promise<void>;
}

/** Creates the regenerator. */
export function createRegenerator(deps: RegeneratorDeps): Regenerator {
  const { store, front, events, now } = deps;
  const running = new Map<string, Promise<void>>();

  async function regenerate(
    lookup: SegmentLookup,
    load: () => Promise<LoadedSegment>,
    since: number | Unavailable,
  ): Promise<LoadedSegment> {
    const startedAt = now();
    const frontEpoch = front?.epoch() ?? 0;
    const loaded = await load();
    const known = since === UNAVAILABLE ? null : since;
    events.regeneration(await deps.keep({ lookup, loaded, since: known, startedAt, frontEpoch }));
    return loaded;
  }

  async function underLock(
    lookup: SegmentLookup,
    key: string,
    token: string,
    since: number,
    load: () => Promise<LoadedSegment>,
  ): Promise<LoadedSegment> {
    try {
      return await regenerate(lookup, load, since);
    } finally {
      releaseLock(store, lookup.build, key, token);
    }
  }

  async function refresh(
    lookup: SegmentLookup,
    key: string,
    load: () => Promise<LoadedSegment>,
  ): Promise<void> {
    const token = deps.newToken();
    const lock = await orUnavailable(() => store.acquire(lookup.build, key, token, deps.lockTtlMs));
    if (lock === UNAVAILABLE || !lock.acquired) return;
    // Someone may have refreshed it since we read it stale.
    const stored = await readUsableEntry(store, lookup.build, key, now);
    if (stored && stored !== UNAVAILABLE && classifyAge(stored.storedAt, now()) === 'fresh') {
      releaseLock(store, lookup.build, key, token);
      return;
    }
    await underLock(lookup, key, token, lock.sequence, load);
  }

  return {
    regenerate,
    underLock,
    async firstRun(lookup, load) {
      const since = await orUnavailable(() => store.sequence());
      events.miss();
      return regenerate(lookup, load, since);
    },
    isRunning: (id) => running.has(id),
    inBackground(id, lookup, key, load) {
      if (running.has(id)) return;
      const task = refresh(lookup, key, load)
        .catch(deps.onBackgroundError)
        .finally(() => running.delete(id));
      running.set(id, task);
    },
    async drain(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(running.values()),
        new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
    },
  };
}
