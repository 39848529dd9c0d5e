/**
 * The render service's SegmentCache resolver: the lookup path of one segment. The front cache
 * answers fresh entries, then the shared store; a stale entry is served while one regenerator
 * refreshes it (regeneration.ts), a miss takes the key's lock or waits for whoever holds it
 * (miss-coordination.ts), and identical loads in this process are merged (single-flight.ts).
 * Every store failure degrades to running the loader (store-fallback.ts): a page never fails
 * because of the cache. Decisions are pure (cache-decisions.ts, segment-shape.ts); time is
 * injected.
 */
import type { LoadedSegment, SegmentLookup } from '@strata/web/server';
import { decideOnEntry, type WaitLimits } from './cache-decisions.js';
import type { CacheEvents } from './cache-metrics.js';
import { decodeEntry, toLoadedSegment, utf8Length } from './entry-codec.js';
import type { FrontCache } from './front-cache.js';
import type { GuardedStore } from './guarded-store.js';
import { createResultKeeper } from './keep-result.js';
import { createMissLoader } from './miss-coordination.js';
import { createRegenerator } from './regeneration.js';
import { createShapeRegistry } from './shape-registry.js';
import { fullRequestKey, storageKeyFor, unshareableReason } from './segment-shape.js';
import { createSingleFlight } from './single-flight.js';
import { loadUncached, orUnavailable, UNAVAILABLE } from './store-fallback.js';

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
  const regenerator = createRegenerator({
    store,
    ...(front && { front }),
    events,
    now,
    newToken: deps.newToken,
    lockTtlMs: limits.lockTtlMs,
    keep,
    onBackgroundError: deps.onBackgroundError,
  });
  const loadOnMiss = createMissLoader({
    store,
    regenerator,
    events,
    now,
    newToken: deps.newToken,
    sleep: deps.sleep,
    limits,
  });

  return {
    async resolve(lookup, load) {
      const { build, segmentId } = lookup;
      const shape = await shapes.get(build, segmentId);
      if (shape === 'unavailable') return loadUncached(events, load);
      // Without a shape there is no storage key yet: merge on every name of the request.
      if (shape === null) {
        const id = `?${build}\u0000${fullRequestKey(segmentId, lookup.params, lookup.search)}`;
        return coalesce(id, () => regenerator.firstRun(lookup, load), load);
      }
      const skip = unshareableReason(shape);
      if (skip) {
        events.bypass(skip);
        return load();
      }
      const key = storageKeyFor(segmentId, shape, lookup.params, lookup.search);
      const useFront = front !== undefined && deps.frontUsable();
      const fromFront = useFront ? front.get(build, key, now()) : undefined;
      if (fromFront) {
        events.hit('front');
        return toLoadedSegment(segmentId, fromFront);
      }
      // Read before the store call: an invalidation arriving meanwhile keeps this entry out.
      const frontEpoch = front?.epoch() ?? 0;
      const body = await orUnavailable(() => store.get(build, key));
      if (body === UNAVAILABLE) return loadUncached(events, load);
      const entry = body === null ? null : decodeEntry(body);
      const id = `${build}\u0000${key}`;
      const decision = decideOnEntry(entry?.storedAt ?? null, now(), regenerator.isRunning(id));
      if (entry && decision.serve === 'fresh') {
        events.hit('store');
        if (useFront && body) front.put(build, key, entry, utf8Length(body), frontEpoch);
        return toLoadedSegment(segmentId, entry);
      }
      if (entry && decision.serve === 'stale') {
        events.staleHit();
        if (decision.regenerate) regenerator.inBackground(id, lookup, key, load);
        return toLoadedSegment(segmentId, entry);
      }
      events.miss();
      return coalesce(id, () => loadOnMiss(lookup, key, load), load);
    },
    drain: (timeoutMs) => regenerator.drain(timeoutMs),
  };
}
