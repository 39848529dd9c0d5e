/**
 * The segment cache without REDIS_URL (the in-process store) behind a real render app and data
 * service: repeat requests need no data read, writes invalidate, stale entries are served while
 * one regeneration runs, and what must not be shared never is (segments reading cookies,
 * segments with deferred values, entries over the size cap).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  payloadRequest,
  startCachedStack,
  type CachedStack,
  type Replica,
} from './harness/start-cached-render.js';

let stack: CachedStack;
let replica: Replica;
beforeAll(async () => {
  stack = await startCachedStack({ count: 1 });
  replica = stack.replicas[0] as Replica;
});
afterAll(() => stack?.stop());

const itemsPayload = payloadRequest(
  '/bench/items',
  '1;bench-root/bench-section/bench-item(p.id=1)',
);

describe('in-process segment cache', () => {
  it('serves repeat requests without a data read, identical to the first answer', async () => {
    const first = await replica.app.inject(itemsPayload);
    const reads = stack.reads();
    const second = await replica.app.inject(itemsPayload);
    expect(second.body).toBe(first.body);
    expect(stack.reads()).toBe(reads);
    expect(await replica.counter('hits_total', { layer: 'store' })).toBe(1);
  });

  it('serves a document from cached segments too', async () => {
    await replica.app.inject({ url: '/bench/items/2' });
    const reads = stack.reads();
    const page = await replica.app.inject({ url: '/bench/items/2' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<h1>Item 2</h1>');
    expect(stack.reads()).toBe(reads);
  });

  it('a write through the API invalidates the entries carrying its tags', async () => {
    const item = (await replica.app.inject({ url: '/api/items/2' })).json() as { version: number };
    const patch = await replica.app.inject({
      method: 'PATCH',
      url: '/api/items/2',
      headers: { 'content-type': 'application/json' },
      payload: { expectedVersion: item.version, title: 'Item 2 renamed' },
    });
    expect(patch.statusCode).toBe(200);
    expect((await replica.app.inject({ url: '/bench/items/2' })).body).toContain(
      '<h1>Item 2 renamed</h1>',
    );
    expect((await replica.app.inject(itemsPayload)).body.includes('"title":"Item 2 renamed"')).toBe(
      true,
    );
  });

  it('serves a stale entry at once and refreshes it in the background', async () => {
    await replica.app.inject(itemsPayload);
    stack.advance(31_000);
    const reads = stack.reads();
    const stored = await replica.counter('regenerations_total', { outcome: 'stored' });
    const stale = await replica.app.inject(itemsPayload);
    expect(stale.statusCode).toBe(200);
    await eventually(
      async () =>
        (await replica.counter('regenerations_total', { outcome: 'stored' })) === stored + 1,
      2000,
      'the regeneration',
    );
    await replica.app.inject(itemsPayload);
    expect(stack.reads()).toBe(reads + 1);
    expect(await replica.counter('stale_hits_total')).toBe(1);
  });

  it('never shares a segment that read a cookie', async () => {
    const greeting = async (user: string) => {
      const page = await replica.app.inject({
        url: '/account',
        headers: { cookie: `strata_user=${user}` },
      });
      return /Signed in as (?:<!-- -->)?(\w+)/.exec(page.body)?.[1];
    };
    expect(await greeting('alice')).toBe('alice');
    expect(await greeting('bob')).toBe('bob');
    expect(await greeting('alice')).toBe('alice');
    expect(await replica.counter('bypasses_total', { reason: 'private' })).toBeGreaterThan(0);
  });

  it('does not store segments with deferred values', async () => {
    const page = await replica.app.inject({ url: '/items/5' });
    expect(page.statusCode).toBe(200);
    expect(await replica.counter('not_cacheable_total', { reason: 'deferred' })).toBeGreaterThan(0);
  });
});

describe('entry size cap', () => {
  it('serves but does not store a result larger than the cap', async () => {
    const small = await startCachedStack({ count: 1, overrides: { maxEntryBytes: 1000 } });
    try {
      const [only] = small.replicas as [Replica];
      for (let i = 0; i < 3; i++)
        expect((await only.app.inject(itemsPayload)).statusCode).toBe(200);
      expect(small.reads()).toBe(3);
      expect(await only.counter('not_cacheable_total', { reason: 'too-large' })).toBe(3);
    } finally {
      await small.stop();
    }
  });
});
