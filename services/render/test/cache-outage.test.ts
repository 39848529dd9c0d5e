/**
 * Redis stopped in the middle of a load: every page is still answered (uncached), the breaker
 * opens with a log line and a metric, and when a Redis comes back on the same address the cache
 * recovers by itself (breaker closed, entries stored and served again). The fresh Redis is
 * another server (a new run_id): the cache notices and starts a new epoch before trusting it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoad } from './harness/page-load.js';
import { freePort, startTestRedis, type TestRedis } from '@strata/testing';
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

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Redis outage', () => {
  it(
    'serves every page while Redis is down, then recovers when it returns',
    { timeout: 60_000 },
    async () => {
      const [replica] = stack.replicas as [Replica];
      const load = startLoad(replica, 8);
      await eventually(async () => (await replica.counter('hits_total')) > 20, 5000, 'warm hits');

      const resets = { source: 'server-change' };
      const resetsBefore = await replica.counter('invalidations_total', resets);
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
      expect(await replica.counter('invalidations_total', resets)).toBe(resetsBefore + 1);
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
