/**
 * Redis stopped in the middle of a load: every page is still answered (uncached), the breaker
 * opens with a log line and a metric, and when a Redis comes back on the same address the cache
 * recovers by itself (breaker closed, entries stored and served again).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startTestRedis, type TestRedis } from './harness/redis-container.js';
import {
  eventually,
  payloadRequest,
  startCachedStack,
  type CachedStack,
  type Replica,
} from './harness/start-cached-render.js';

let port: number;
let redis: TestRedis | undefined;
let stack: CachedStack;
beforeAll(async () => {
  port = await freePort();
  redis = await startTestRedis(port);
  stack = await startCachedStack({
    count: 1,
    redisUrl: redis.url,
    overrides: { breaker: { failureThreshold: 3, openMs: 300 } },
  });
});
afterAll(async () => {
  await stack?.stop();
  await redis?.kill();
});

interface LoadResult {
  sent: number;
  failures: string[];
}

/** Keeps `workers` requests in flight (payloads and documents of 20 items) until stopped. */
function startLoad(replica: Replica, workers: number): { stop(): Promise<LoadResult> } {
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
      const response = await replica.app.inject(request);
      result.sent += 1;
      const ok =
        response.statusCode === 200 &&
        (asDocument ? response.body.includes('</html>') : response.body.includes('"type":"end"')) &&
        response.body.includes(`Item ${id}`);
      if (!ok) result.failures.push(`${request.url} → ${response.statusCode}`);
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

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Redis outage', () => {
  it(
    'serves every page while Redis is down, then recovers when it returns',
    { timeout: 60_000 },
    async () => {
      const [replica] = stack.replicas as [Replica];
      const load = startLoad(replica, 8);
      await eventually(async () => (await replica.counter('hits_total')) > 20, 5000, 'warm hits');

      await redis?.kill();
      redis = undefined;
      await eventually(() => !replica.caching.cache.healthy(), 5000, 'the breaker to open');
      // Still ready: pages are served, uncached.
      const ready = await replica.app.inject('/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'ok', cache: 'degraded' });
      const readsDuringOutage = stack.reads();
      await pause(1000);
      expect(stack.reads()).toBeGreaterThan(readsDuringOutage); // served uncached
      expect(await replica.counter('errors_total')).toBeGreaterThan(0);
      expect(await replica.counter('bypasses_total', { reason: 'unavailable' })).toBeGreaterThan(0);
      expect(replica.logged.some((line) => String(line['msg']).includes('store unavailable'))).toBe(
        true,
      );

      redis = await startTestRedis(port);
      await eventually(() => replica.caching.cache.healthy(), 15_000, 'the breaker to close');
      const storeHits = await replica.counter('hits_total');
      await eventually(
        async () => (await replica.counter('hits_total')) > storeHits + 20,
        10_000,
        'cache hits after recovery',
      );
      const result = await load.stop();
      expect(result.failures).toEqual([]);
      expect(result.sent).toBeGreaterThan(100);
      expect(replica.logged.some((line) => String(line['msg']).includes('available again'))).toBe(
        true,
      );

      // Recovered for good: a pass over the same pages needs no data-service read. Stores are
      // written after the answer, so the last misses of the load may still be landing: the
      // first pass can read once or twice, a later one must not read at all.
      const passReads = async () => {
        const reads = stack.reads();
        for (let id = 1; id <= 20; id++)
          await replica.app.inject(
            payloadRequest(`/bench/items/${id}`, '1;bench-root/bench-section/bench-items'),
          );
        return stack.reads() - reads;
      };
      await eventually(async () => (await passReads()) === 0, 5000, 'a pass with no reads');
    },
  );
});
