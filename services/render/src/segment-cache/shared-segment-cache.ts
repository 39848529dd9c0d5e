/**
 * The render service's SegmentCache: answers a segment from the front cache or the shared
 * store, serves stale entries while exactly one regenerator (lock per key) refreshes them, makes
 * misses wait for a regenerator elsewhere instead of stampeding the data service, and merges
 * identical loads in this process. Every store failure degrades to running the loader: a page
 * never fails because of the cache. Decisions come from cache-decisions.ts; time is injected.
 */
import type { LoadedSegment, SegmentLookup } from '@strata/web/server';
import {
  classifyAge,
  decideOnEntry,
  decideWhileWaiting,
  type WaitLimits,
} from './cache-decisions.js';
import type { CacheEvents } from './cache-metrics.js';
import { decodeEntry, toLoadedSegment, utf8Length } from './entry-codec.js';
import type { FrontCache } from './front-cache.js';
import type { GuardedStore } from './guarded-store.js';
import { createResultKeeper } from './keep-result.js';
import { createShapeRegistry } from './shape-registry.js';
import { fullRequestKey, isShareable, storageKeyFor } from './segment-shape.js';
import { createSingleFlight } from './single-flight.js';

/** Bounds of the cache's behaviour. */
export interface CacheLimits extends WaitLimits {
  /** Entries whose encoding is larger are not stored. */
  readonly maxEntryBytes: number;
}

/** What the resolver is built from (the composition root supplies the adapters). */
export interface ResolverDeps {
  readonly store: GuardedStore;
  /** Present with a shared store; `frontUsable` says when it may answer. */
  readonly front?: FrontCache;
  readonly frontUsable: () => boolean;
  readonly events: CacheEvents;
  readonly now: () => number;
  readonly newToken: () => string;
  readonly sleep: (ms: number) => Promise<void>;
  readonly limits: CacheLimits;
  readonly onBackgroundError: (error: unknown) => void;
}

/** The resolve half of the cache, plus what shutdown needs. */
export interface SegmentResolver {
  resolve(lookup: SegmentLookup, load: () => Promise<LoadedSegment>): Promise<LoadedSegment>;
  /** Waits for background regenerations (at most `timeoutMs`). */
  drain(timeoutMs: number): Promise<void>;
}

const UNAVAILABLE = Symbol('unavailable');

/** Creates the resolver. */
export function createSegmentResolver(deps: ResolverDeps): SegmentResolver {
  const { store, front, events, now, limits } = deps;
  const shapes = createShapeRegistry(store);
  const coalesce = createSingleFlight();
  const keep = createResultKeeper({
    store,
    shapes,
    ...(front && { front }),
    frontUsable: deps.frontUsable,
    events,
    now,
    maxEntryBytes: limits.maxEntryBytes,
    lockTtlMs: limits.lockTtlMs,
  });
  const regenerating = new Map<string, Promise<void>>();

  const safe = async <T>(run: () => Promise<T>): Promise<T | typeof UNAVAILABLE> => {
    try {
      return await run();
    } catch {
      return UNAVAILABLE; // counted and logged by the guarded store
    }
  };
  const bypass = (load: () => Promise<LoadedSegment>) => {
    events.bypass('unavailable');
    return load();
  };

  /** Runs the loader for the cache (lock held, or alone after waiting) and keeps the result. */
  async function regenerate(
    lookup: SegmentLookup,
    load: () => Promise<LoadedSegment>,
    since: number | typeof UNAVAILABLE,
  ): Promise<LoadedSegment> {
    const startedAt = now();
    const frontEpoch = front?.epoch() ?? 0;
    const loaded = await load();
    const known = since === UNAVAILABLE ? null : since;
    events.regeneration(await keep({ lookup, loaded, since: known, startedAt, frontEpoch }));
    return loaded;
  }

  /** The entry under `key` unless missing or expired (or UNAVAILABLE). */
  async function readEntry(lookup: SegmentLookup, key: string) {
    const body = await safe(() => store.get(lookup.build, key));
    if (body === UNAVAILABLE || body === null) return body;
    const entry = decodeEntry(body);
    return entry && classifyAge(entry.storedAt, now()) !== 'expired' ? entry : null;
  }

  function release(lookup: SegmentLookup, key: string, token: string): void {
    // Only the owner's token deletes it; if this fails, the lock expires by itself.
    void safe(() => store.release(lookup.build, key, token));
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
      release(lookup, key, token);
    }
  }

  /** A miss: take the lock and load, or wait for whoever holds it. */
  async function loadCoordinated(
    lookup: SegmentLookup,
    key: string,
    load: () => Promise<LoadedSegment>,
  ): Promise<LoadedSegment> {
    const token = deps.newToken();
    const began = now();
    for (let attempt = 0; ; attempt++) {
      const lock = await safe(() => store.acquire(lookup.build, key, token, limits.lockTtlMs));
      if (lock === UNAVAILABLE) return bypass(load);
      if (lock.acquired) {
        // Another replica may have stored the key between our read and the lock: look again.
        const stored = await readEntry(lookup, key);
        if (stored === UNAVAILABLE || stored === null) {
          if (attempt > 0) events.wait('took-lock');
          return underLock(lookup, key, token, lock.sequence, load);
        }
        release(lookup, key, token);
        events.wait('filled');
        return toLoadedSegment(lookup.segmentId, stored);
      }
      const next = decideWhileWaiting(now() - began, attempt, lookup.prefetch, limits);
      if (next.next === 'load-alone') {
        events.wait('gave-up');
        return regenerate(lookup, load, lock.sequence);
      }
      await deps.sleep(next.delayMs);
      const entry = await readEntry(lookup, key);
      if (entry === UNAVAILABLE) return bypass(load);
      if (entry) {
        events.wait('filled');
        return toLoadedSegment(lookup.segmentId, entry);
      }
    }
  }

  /** A stale hit: one regeneration per key in this process, and only with the shared lock. */
  function regenerateInBackground(
    lookup: SegmentLookup,
    key: string,
    load: () => Promise<LoadedSegment>,
  ): void {
    const id = `${lookup.build}\u0000${key}`;
    if (regenerating.has(id)) return;
    const task = (async () => {
      const token = deps.newToken();
      const lock = await safe(() => store.acquire(lookup.build, key, token, limits.lockTtlMs));
      if (lock === UNAVAILABLE || !lock.acquired) return;
      // Someone may have refreshed it since we read it stale.
      const stored = await readEntry(lookup, key);
      if (stored && stored !== UNAVAILABLE && classifyAge(stored.storedAt, now()) === 'fresh') {
        release(lookup, key, token);
        return;
      }
      await underLock(lookup, key, token, lock.sequence, load);
    })()
      .catch(deps.onBackgroundError)
      .finally(() => regenerating.delete(id));
    regenerating.set(id, task);
  }

  /** The first run of a segment whose shape nobody knows yet in this build. */
  async function firstRun(
    lookup: SegmentLookup,
    load: () => Promise<LoadedSegment>,
  ): Promise<LoadedSegment> {
    const since = await safe(() => store.sequence());
    events.miss();
    return regenerate(lookup, load, since);
  }

  return {
    async resolve(lookup, load) {
      const { build, segmentId } = lookup;
      const shape = await shapes.get(build, segmentId);
      if (shape === 'unavailable') return bypass(load);
      if (shape === null) {
        const id = `?${build}\u0000${fullRequestKey(segmentId, lookup.params, lookup.search)}`;
        return coalesce(id, () => firstRun(lookup, load), load);
      }
      if (!isShareable(shape)) {
        events.bypass(shape.private ? 'private' : 'too-many-names');
        return load();
      }
      const key = storageKeyFor(segmentId, shape, lookup.params, lookup.search);
      const useFront = front !== undefined && deps.frontUsable();
      const fromFront = useFront ? front.get(build, key, now()) : undefined;
      if (fromFront) {
        events.hit('front');
        return toLoadedSegment(segmentId, fromFront);
      }
      const frontEpoch = front?.epoch() ?? 0;
      const body = await safe(() => store.get(build, key));
      if (body === UNAVAILABLE) return bypass(load);
      const entry = body === null ? null : decodeEntry(body);
      const id = `${build}\u0000${key}`;
      const decision = decideOnEntry(entry?.storedAt ?? null, now(), regenerating.has(id));
      if (entry && decision.serve === 'fresh') {
        events.hit('store');
        if (useFront && body) front.put(build, key, entry, utf8Length(body), frontEpoch);
        return toLoadedSegment(segmentId, entry);
      }
      if (entry && decision.serve === 'stale') {
        events.staleHit();
        if (decision.regenerate) regenerateInBackground(lookup, key, load);
        return toLoadedSegment(segmentId, entry);
      }
      events.miss();
      return coalesce(id, () => loadCoordinated(lookup, key, load), load);
    },
    async drain(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(regenerating.values()),
        new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs))),
      ]);
      clearTimeout(timer);
    },
  };
}
