/**
 * Runs prefetch requests at most `concurrency` at a time, in order. A navigation can bump its
 * own queued request: it moves to the front and starts at once, even over the limit. A queued
 * request can be cancelled (its link left the viewport) before it starts. An instance per router.
 */

/** A queued or running task. */
export interface QueuedTask {
  readonly key: string;
  /** Removes the task if it has not started; returns whether it had not. */
  cancel(): boolean;
}

/** The queue. */
export interface PrefetchQueue {
  /** Queues `start` under `key` (ignored if that key is already queued or running). */
  enqueue(key: string, start: () => Promise<unknown>): QueuedTask;
  /** Starts the task for `key` now if it is still queued; returns whether it was queued. */
  bump(key: string): boolean;
  readonly running: () => number;
  readonly queued: () => number;
}

/** Creates a queue with the given concurrency. */
export function createPrefetchQueue(concurrency: number): PrefetchQueue {
  const waiting = new Map<string, () => Promise<unknown>>();
  const active = new Set<string>();

  const run = (key: string, start: () => Promise<unknown>) => {
    active.add(key);
    start()
      .catch(() => undefined)
      .finally(() => {
        active.delete(key);
        pump();
      });
  };
  const pump = () => {
    for (const [key, start] of waiting) {
      if (active.size >= concurrency) return;
      waiting.delete(key);
      run(key, start);
    }
  };

  return {
    enqueue(key, start) {
      if (!waiting.has(key) && !active.has(key)) {
        waiting.set(key, start);
        pump();
      }
      return { key, cancel: () => waiting.delete(key) };
    },
    bump(key) {
      const start = waiting.get(key);
      if (!start) return false;
      waiting.delete(key);
      run(key, start);
      return true;
    },
    running: () => active.size,
    queued: () => waiting.size,
  };
}
