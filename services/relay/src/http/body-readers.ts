/**
 * The request bodies being read right now, so shutdown can cut them all off at once. A Set of
 * callbacks rather than a listener per request on an AbortSignal: every envelope registers and
 * unregisters one, and EventTarget's listener bookkeeping cost more than the rest of that.
 */

/** Registers a body's cut-off; `stopAll` calls every registered one (and any registered later). */
export interface BodyReaders {
  /** Registers `stop`, called at once when the readers are already stopped; answers an undo. */
  track(stop: () => void): () => void;
  stopAll(): void;
}

/** Creates an empty set of body readers. */
export function createBodyReaders(): BodyReaders {
  const stops = new Set<() => void>();
  let stopped = false;
  return {
    track(stop) {
      if (stopped) {
        stop();
        return () => undefined;
      }
      stops.add(stop);
      return () => stops.delete(stop);
    },
    stopAll() {
      stopped = true;
      // Each stop unregisters itself: deleting the current entry is safe while iterating a Set.
      for (const stop of stops) stop();
      stops.clear();
    },
  };
}
