/**
 * Page load on an in-process render replica for the cache's failure tests: workers keep requests
 * in flight (payloads and documents of the bench items 1-20) until stopped, and every answer that
 * is not a complete page of the right item is recorded as a failure.
 */
import type { Replica } from './start-cached-render.js';
import { payloadRequest } from './start-cached-render.js';

/** What a load did. */
export interface LoadResult {
  sent: number;
  failures: string[];
}

/** A further check of one answer: a reason it is wrong, or undefined. `startedAt` is Date.now(). */
export type AnswerCheck = (id: number, body: string, startedAt: number) => string | undefined;

/** Keeps `workers` requests in flight on `replica` until stopped. */
export function startLoad(
  replica: Replica,
  workers: number,
  check?: AnswerCheck,
): { stop(): Promise<LoadResult> } {
  const result: LoadResult = { sent: 0, failures: [] };
  const state = { running: true };
  const worker = async (seed: number) => {
    for (let n = seed; state.running; n += workers) {
      const id = (n % 20) + 1;
      const asDocument = n % 3 === 0;
      const request = asDocument
        ? { url: `/bench/items/${id}`, headers: {} }
        : payloadRequest(`/bench/items/${id}`, '1;bench-root/bench-section/bench-items');
      // Real requests arrive through I/O; an in-process loop must yield, or cache hits (no I/O)
      // would starve Redis replies and timers.
      await new Promise((resolve) => setImmediate(resolve));
      const startedAt = Date.now();
      const response = await replica.app.inject(request);
      result.sent += 1;
      const ok =
        response.statusCode === 200 &&
        (asDocument ? response.body.includes('</html>') : response.body.includes('"type":"end"')) &&
        response.body.includes(`Item ${id}`);
      const wrong = ok
        ? check?.(id, response.body, startedAt)
        : `${request.url} → ${response.statusCode}`;
      if (wrong) result.failures.push(wrong);
    }
  };
  const all = Array.from({ length: workers }, (_, seed) => worker(seed));
  return {
    async stop() {
      state.running = false;
      await Promise.all(all);
      return result;
    },
  };
}
