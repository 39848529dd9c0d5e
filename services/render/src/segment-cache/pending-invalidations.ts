/**
 * Invalidations that could not reach the shared store (Redis down), kept to be replayed when it
 * answers again, so a write made during an outage does not leave stale entries behind. Bounded:
 * past `maxTags` the set collapses into "drop the whole build", which is always correct.
 */

/** What is waiting to be replayed. */
export interface PendingWork {
  readonly tags: readonly string[];
  readonly dropBuilds: readonly string[];
}

/** A bounded queue of invalidations to replay. */
export interface PendingInvalidations {
  addTags(tags: readonly string[]): void;
  addDropBuild(build: string): void;
  /** Everything pending, emptied. */
  take(): PendingWork;
  isEmpty(): boolean;
}

/** Creates an empty queue; `fallbackBuild` is dropped instead when tags overflow. */
export function createPendingInvalidations(
  fallbackBuild: string,
  maxTags = 10_000,
): PendingInvalidations {
  let tags = new Set<string>();
  let builds = new Set<string>();
  return {
    addTags(more) {
      for (const tag of more) tags.add(tag);
      if (tags.size > maxTags) {
        tags = new Set();
        builds.add(fallbackBuild);
      }
    },
    addDropBuild(build) {
      if (builds.size < 64) builds.add(build);
      else builds.add(fallbackBuild);
    },
    take() {
      const work = { tags: [...tags], dropBuilds: [...builds] };
      tags = new Set();
      builds = new Set();
      return work;
    },
    isEmpty: () => tags.size === 0 && builds.size === 0,
  };
}
