/**
 * What happens after the cache ran a loader: learn the segment's shape from the key the loader
 * produced, and store the result in the shared store (and this replica's front cache) when it
 * may be shared, with the invalidation sequence read before loading so that a write which raced
 * an invalidation of its tags is refused.
 */
import { KEPT_MS } from '@strata/web';
import type { LoadedSegment, SegmentLookup } from '@strata/web/server';
import type { CacheEvents, RegenerationOutcome } from './cache-metrics.js';
import { encodeEntry, uncacheableReason } from './entry-codec.js';
import type { FrontCache } from './front-cache.js';
import type { SegmentStore } from './segment-store.js';
import type { ShapeRegistry } from './shape-registry.js';
import { isShareable, shapeFromKey, storageKeyFor } from './segment-shape.js';

/** What keeping needs. */
export interface KeeperDeps {
  readonly store: SegmentStore;
  readonly shapes: ShapeRegistry;
  readonly front?: FrontCache;
  readonly frontUsable: () => boolean;
  readonly events: CacheEvents;
  readonly now: () => number;
  readonly maxEntryBytes: number;
  /** A load that ran longer than this may have lost its lock: its result is not stored. */
  readonly lockTtlMs: number;
}

/** One finished load, as the keeper sees it. */
export interface FinishedLoad {
  readonly lookup: SegmentLookup;
  readonly loaded: LoadedSegment;
  /** The invalidation sequence read before loading; null when the store could not say. */
  readonly since: number | null;
  readonly startedAt: number;
  /** The front cache's epoch when loading began. */
  readonly frontEpoch: number;
}

/** Creates the keeper. */
export function createResultKeeper(deps: KeeperDeps) {
  const { store, shapes, front, events, now } = deps;

  /** Learns from `done` and stores it if it may be shared; says what happened. */
  return async function keep(done: FinishedLoad): Promise<RegenerationOutcome> {
    const { lookup, loaded, since, startedAt } = done;
    const learned = shapeFromKey(loaded.key, loaded.private);
    if (!learned) return 'not-cacheable';
    const shape = await shapes.learn(lookup.build, lookup.segmentId, learned);
    const reason = uncacheableReason(loaded);
    if (reason) {
      events.notCacheable(reason);
      return 'not-cacheable';
    }
    if (!isShareable(shape) || loaded.outcome.status !== 'ok') return 'not-cacheable';
    const elapsed = now() - startedAt;
    if (since === null || elapsed > deps.lockTtlMs) return 'refused';
    const entry = {
      key: loaded.key,
      tags: loaded.tags,
      data: loaded.outcome.data,
      storedAt: startedAt,
    };
    const encoded = encodeEntry(entry, deps.maxEntryBytes);
    if (!encoded.ok) {
      events.notCacheable(encoded.reason);
      return 'not-cacheable';
    }
    // The key over every name known now (the run may have added names to the shape).
    const key = storageKeyFor(lookup.segmentId, shape, lookup.params, lookup.search);
    let put;
    try {
      put = await store.put(lookup.build, key, encoded.body, loaded.tags, since, KEPT_MS - elapsed);
    } catch {
      return 'failed'; // counted and logged by the guarded store
    }
    if (put === 'refused') return 'refused';
    if (front && deps.frontUsable())
      front.put(lookup.build, key, { v: 1, ...entry }, encoded.bytes, done.frontEpoch);
    return 'stored';
  };
}
