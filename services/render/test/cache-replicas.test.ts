/**
 * Two render replicas sharing one Redis and one real data service: what one caches the other
 * serves; a server action or API write on one invalidates what the other serves (store and
 * front cache, through pub/sub); a write made straight through the data service's gRPC API by
 * another client reaches both through WatchChanges, including one made while they were not
 * watching (resume by sequence).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { benchTitle, connectOutsider, type Outsider } from './harness/bench-items.js';
import { startTestRedis, type TestRedis } from '@strata/testing';
import {
  eventually,
  startCachedStack,
  type CachedStack,
  type Replica,
} from './harness/start-cached-render.js';

let redis: TestRedis;
let stack: CachedStack;
let outsider: Outsider;
beforeAll(async () => {
  redis = await startTestRedis();
  stack = await startCachedStack({ count: 2, redisUrl: redis.url });
  outsider = connectOutsider(stack.data.address);
});
afterAll(async () => {
  outsider?.close();
  await stack?.stop();
  await redis?.kill();
});

const ORIGIN = 'http://shop.test';

describe('two replicas, one Redis', () => {
  it('serves on one replica what the other cached, without another data read', async () => {
    const [a, b] = stack.replicas as [Replica, Replica];
    const before = stack.reads();
    expect(await benchTitle(a, 3)).toBe('Item 3');
    expect(stack.reads()).toBe(before + 1);
    expect(await benchTitle(b, 3)).toBe('Item 3');
    expect(await benchTitle(b, 3)).toBe('Item 3');
    expect(stack.reads()).toBe(before + 1);
    expect(await b.counter('hits_total', { layer: 'store' })).toBe(1);
    expect(await b.counter('hits_total', { layer: 'front' })).toBe(1);
  });

  it('an API write on one replica invalidates what the other serves from its front cache', async () => {
    const [a, b] = stack.replicas as [Replica, Replica];
    // Only the write's own revalidation may do it here: the change feeds are off.
    for (const replica of stack.replicas) replica.watcher.stop();
    expect(await benchTitle(b, 4)).toBe('Item 4');
    expect(await benchTitle(b, 4)).toBe('Item 4'); // now in B's front cache
    const patch = await a.app.inject({
      method: 'PATCH',
      url: '/api/items/4',
      headers: { 'content-type': 'application/json' },
      payload: { expectedVersion: await outsider.itemVersion(4), title: 'Item 4 via API' },
    });
    expect(patch.statusCode).toBe(200);
    await eventually(
      async () => (await benchTitle(b, 4)) === 'Item 4 via API',
      2000,
      'B to see the write',
    );
    expect(await a.counter('invalidations_total', { source: 'revalidate' })).toBe(1);
  });

  it('a server action on one replica invalidates what the other serves', async () => {
    const [a, b] = stack.replicas as [Replica, Replica];
    expect(await benchTitle(b, 9)).toBe('Item 9');
    const page = (await a.app.inject({ url: '/items/9' })).body;
    const actionId = /name="\$action" value="([0-9a-f]{32})"/.exec(page)?.[1] ?? '';
    const response = await a.app.inject({
      method: 'POST',
      url: '/items/9',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      payload: new URLSearchParams({
        $action: actionId,
        id: '9',
        title: 'Item 9 via action',
        price: '1.00',
        categoryId: 'cat-9',
        description: '',
        version: String(await outsider.itemVersion(9)),
      }).toString(),
    });
    expect(response.statusCode).toBe(303);
    await eventually(
      async () => (await benchTitle(b, 9)) === 'Item 9 via action',
      2000,
      'B to see the action',
    );
  });

  it('a write through the data service by another client reaches both through WatchChanges', async () => {
    const [a, b] = stack.replicas as [Replica, Replica];
    for (const replica of stack.replicas) replica.watcher.start();
    await eventually(() => stack.replicas.every((r) => r.watcher.connected()), 3000);
    expect(await benchTitle(a, 5)).toBe('Item 5');
    expect(await benchTitle(b, 5)).toBe('Item 5');
    await outsider.rename(5, 'Item 5 from outside');
    await eventually(
      async () =>
        (await benchTitle(a, 5)) === 'Item 5 from outside' &&
        (await benchTitle(b, 5)) === 'Item 5 from outside',
      3000,
      'both replicas to see the outside write',
    );
    expect(await b.counter('invalidations_total', { source: 'watch' })).toBeGreaterThan(0);
  });

  it('a watcher that was away resumes after its last sequence and catches up', async () => {
    const [a, b] = stack.replicas as [Replica, Replica];
    expect(await benchTitle(b, 6)).toBe('Item 6');
    for (const replica of stack.replicas) replica.watcher.stop();
    await outsider.rename(6, 'Item 6 while away');
    // Nothing told the cache: it still serves what it has (fresh for 30 s).
    expect(await benchTitle(b, 6)).toBe('Item 6');
    a.watcher.start();
    await eventually(
      async () => (await benchTitle(b, 6)) === 'Item 6 while away',
      3000,
      'the replayed change to invalidate the entry',
    );
    b.watcher.start();
  });
});
