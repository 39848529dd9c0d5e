/**
 * Merges identical loads in this process: while one is running for an id, later callers wait
 * for it instead of starting their own, and share its result when that result may be shared
 * (not private, no deferred values, not an error that may be the first caller's own abort);
 * otherwise they run their own load.
 */
import type { LoadedSegment } from '@strata/web/server';

/** Runs `lead` once per id at a time; followers share its result or fall back to `load`. */
export type SingleFlight = (
  id: string,
  lead: () => Promise<LoadedSegment>,
  load: () => Promise<LoadedSegment>,
) => Promise<LoadedSegment>;

/** Creates an empty single-flight table. */
export function createSingleFlight(): SingleFlight {
  const running = new Map<string, Promise<LoadedSegment>>();
  return async (id, lead, load) => {
    const current = running.get(id);
    if (current) {
      const shared = await current.catch(() => null);
      const shareable =
        shared !== null &&
        !shared.private &&
        shared.deferred.size === 0 &&
        shared.outcome.status !== 'error';
      return shareable ? shared : load();
    }
    const promise = lead();
    running.set(id, promise);
    try {
      return await promise;
    } finally {
      running.delete(id);
    }
  };
}
