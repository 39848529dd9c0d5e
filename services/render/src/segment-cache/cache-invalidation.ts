/**
 * Invalidation of the segment cache: by tag (actions, the JSON API, the data service's change
 * feed) or a whole build (change-feed reset). The shared store is invalidated atomically, then
 * every other replica's front cache hears about it through the bus. What cannot reach the store
 * is kept and replayed when it answers again.
 */
import type { CacheEvents, InvalidationSource } from './cache-metrics.js';
import type { FrontCache } from './front-cache.js';
import type { Invalidation, InvalidationBus } from './invalidation-bus.js';
import { createPendingInvalidations } from './pending-invalidations.js';
import type { SegmentStore } from './segment-store.js';

/** Invalidates the cache and keeps replicas' fronts in step. */
export interface CacheInvalidator {
  invalidate(tags: readonly string[], source: InvalidationSource): Promise<void>;
  dropBuild(build: string, source: InvalidationSource): Promise<void>;
  /** Replays what failed while the store was away. */
  replay(): Promise<void>;
  /** Another replica's invalidation arrived. */
  onRemote(invalidation: Invalidation): void;
  /** Front entries may predate invalidations this replica did not hear: forget them. */
  forgetFront(): void;
}

/** What the invalidator works on. */
export interface InvalidatorDeps {
  readonly store: SegmentStore;
  readonly front?: FrontCache;
  readonly bus?: InvalidationBus;
  readonly events: CacheEvents;
  /** The build this replica serves (dropped when pending tags overflow). */
  readonly build: string;
  readonly onFailure: (what: string, error: unknown) => void;
}

/** Creates the invalidator. */
export function createInvalidator(deps: InvalidatorDeps): CacheInvalidator {
  const { store, front, bus, events } = deps;
  const pending = createPendingInvalidations(deps.build);

  async function publish(invalidation: Invalidation): Promise<boolean> {
    if (!bus) return true;
    try {
      await bus.publish(invalidation);
      return true;
    } catch (error) {
      events.error('publish');
      deps.onFailure('publish', error);
      return false;
    }
  }

  async function invalidate(tags: readonly string[], source: InvalidationSource): Promise<void> {
    const unique = [...new Set(tags)];
    if (unique.length === 0) return;
    events.invalidation(source);
    front?.invalidateTags(unique);
    try {
      await store.invalidateTags(unique);
    } catch (error) {
      pending.addTags(unique);
      deps.onFailure('invalidate', error);
      return;
    }
    if (!(await publish({ tags: unique }))) pending.addTags(unique);
  }

  async function dropBuild(build: string, source: InvalidationSource): Promise<void> {
    events.invalidation(source);
    front?.clear();
    try {
      await store.dropBuild(build);
    } catch (error) {
      pending.addDropBuild(build);
      deps.onFailure('drop-build', error);
      return;
    }
    if (!(await publish({ dropBuild: build }))) pending.addDropBuild(build);
  }

  return {
    invalidate,
    dropBuild,
    async replay() {
      if (pending.isEmpty()) return;
      const work = pending.take();
      for (const build of work.dropBuilds) await dropBuild(build, 'replay');
      if (work.tags.length > 0) await invalidate(work.tags, 'replay');
    },
    onRemote(invalidation) {
      if ('tags' in invalidation) front?.invalidateTags(invalidation.tags);
      else front?.clear();
    },
    forgetFront() {
      front?.clear();
    },
  };
}
