/**
 * A miss of a key whose shape is known: across replicas, the key's lock elects one loader and
 * the others poll the store for its result (cache-decisions.ts says how long and how often),
 * so a popular key costs the data service one load, not one per replica.
 */
import type { LoadedSegment, SegmentLookup } from '@strata/web/server';
import { decideWhileWaiting, type WaitLimits } from './cache-decisions.js';
import type { CacheEvents } from './cache-metrics.js';
import { toLoadedSegment } from './entry-codec.js';
import type { Regenerator } from './regeneration.js';
import type { SegmentStore } from './segment-store.js';
import {
  loadUncached,
  orUnavailable,
  readUsableEntry,
  releaseLock,
  UNAVAILABLE,
} from './store-fallback.js';

/** What coordinating needs. */
export interface MissDeps {
  readonly store: SegmentStore;
  readonly regenerator: Regenerator;
  readonly events: CacheEvents;
  readonly now: () => number;
  readonly newToken: () => string;
  readonly sleep: (ms: number) => Promise<void>;
  readonly limits: WaitLimits;
}

/** Answers a miss of `key`: takes its lock and loads, or waits for whoever holds it. */
export type MissLoader = (
  lookup: SegmentLookup,
  key: string,
  load: () => Promise<LoadedSegment>,
) => Promise<LoadedSegment>;

/** Creates the miss loader. */
export function createMissLoader(deps: MissDeps): MissLoader {
  const { store, regenerator, events, now, limits } = deps;
  return async (lookup, key, load) => {
    const token = deps.newToken();
    const began = now();
    for (let attempt = 0; ; attempt++) {
      const lock = await orUnavailable(() =>
        store.acquire(lookup.build, key, token, limits.lockTtlMs),
      );
      if (lock === UNAVAILABLE) return loadUncached(events, load);
      if (lock.acquired) {
        // Another replica may have stored the key between our read and the lock: look again.
        const stored = await readUsableEntry(store, lookup.build, key, now);
        if (stored === UNAVAILABLE || stored === null) {
          if (attempt > 0) events.wait('took-lock');
          return regenerator.underLock(lookup, key, token, lock.sequence, load);
        }
        releaseLock(store, lookup.build, key, token);
        events.wait('filled');
        return toLoadedSegment(lookup.segmentId, stored);
      }
      const next = decideWhileWaiting(now() - began, attempt, lookup.prefetch, limits);
      if (next.next === 'load-alone') {
        events.wait('gave-up');
        return regenerator.regenerate(lookup, load, lock.sequence);
      }
      await deps.sleep(next.delayMs);
      const entry = await readUsableEntry(store, lookup.build, key, now);
      if (entry === UNAVAILABLE) return loadUncached(events, load);
      if (entry) {
        events.wait('filled');
        return toLoadedSegment(lookup.segmentId, entry);
      }
    }
  };
}
