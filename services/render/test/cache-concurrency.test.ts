/**
 * Stampedes against one key, counted at the data service: 50 simultaneous requests for a stale
 * key cause exactly one read (on one replica, and split over two replicas), as do 50
 * simultaneous misses over two replicas; prefetches are served from the cache even when stale
 * and never start a second regeneration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '@strata/testing';
import {
  eventually,
  payloadRequest,
  startCachedStack,
  type CachedStack,
  type Replica,
} from './harness/start-cached-render.js';

let redis: TestRedis;
let stack: CachedStack;
beforeAll(async () => {
  redis = await startTestRedis();
  stack = await startCachedStack({ count: 2, redisUrl: redis.url });
});
afterAll(async () => {
  await stack?.stop();
  await redis?.kill();
});

const STALE_AFTER_MS = 31_000;
const TREE = '1;bench-root/bench-section/bench-item(p.id=1)';

function itemsPayload(prefetch?: 'auto' | 'full') {
  return payloadRequest('/bench/items', TREE, prefetch);
}

function itemPayload(id: number) {
  return payloadRequest(`/bench/items/${id}`, '1;bench-root/bench-section/bench-items');
}

/** Sends `count` requests at once, spread round-robin over `replicas`; all must succeed. */
async function burst(
  replicas: readonly Replica[],
  count: number,
  request: ReturnType<typeof payloadRequest>,
): Promise<string[]> {
  const responses = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      (replicas[index % replicas.length] as Replica).app.inject(request),
    ),
  );
  for (const response of responses) {
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('"type":"segment"');
    expect(response.body).toContain('"type":"end"');
  }
  return responses.map((response) => response.body);
}

async function regenerationsStored(): Promise<number> {
  let total = 0;
  for (const replica of stack.replicas)
    total += await replica.counter('regenerations_total', { outcome: 'stored' });
  return total;
}

describe('one regenerator per key', () => {
  it('50 simultaneous requests for one stale key cause exactly one data-service call', async () => {
    const [a] = stack.replicas as [Replica];
    await burst([a], 1, itemsPayload()); // warm
    stack.advance(STALE_AFTER_MS);
    const reads = stack.reads();
    const stored = await regenerationsStored();
    await burst([a], 50, itemsPayload());
    await eventually(async () => (await regenerationsStored()) === stored + 1, 10_000);
    expect(stack.reads()).toBe(reads + 1);
    expect(await a.counter('stale_hits_total')).toBeGreaterThanOrEqual(50);
    // The regenerated entry is fresh: the next requests need no read at all.
    await burst([a], 10, itemsPayload());
    expect(stack.reads()).toBe(reads + 1);
  });

  it('…and also when they are spread over two replicas', async () => {
    stack.advance(STALE_AFTER_MS);
    const reads = stack.reads();
    const stored = await regenerationsStored();
    await burst(stack.replicas, 50, itemsPayload());
    await eventually(async () => (await regenerationsStored()) === stored + 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 100)); // a second one would show by now
    expect(stack.reads()).toBe(reads + 1);
  });

  it('50 simultaneous misses over two replicas cause exactly one data-service call', async () => {
    await burst(stack.replicas, 1, itemPayload(1)); // both learn the segment's shape
    const reads = stack.reads();
    const bodies = await burst(stack.replicas, 50, itemPayload(20));
    expect(stack.reads()).toBe(reads + 1);
    for (const body of bodies) expect(body).toContain('"title":"Item 20"');
  });

  it('prefetches serve stale entries and start at most one regeneration', async () => {
    await burst(stack.replicas, 1, itemsPayload('full'));
    stack.advance(STALE_AFTER_MS);
    const reads = stack.reads();
    const stored = await regenerationsStored();
    await burst(stack.replicas, 30, itemsPayload('full'));
    await eventually(async () => (await regenerationsStored()) === stored + 1, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stack.reads()).toBe(reads + 1);
  });
});
