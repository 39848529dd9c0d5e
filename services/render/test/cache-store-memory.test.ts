/**
 * The SegmentStore contract against the in-process store (fake clock), plus its byte bound.
 */
import { describe, expect, it } from 'vitest';
import { createMemorySegmentStore } from '../src/segment-cache/index.js';
import { segmentStoreContract } from './cache-store.contract.js';

segmentStoreContract('in-process', async () => {
  let now = 1_000_000;
  const store = createMemorySegmentStore({ maxBytes: 1024 * 1024, now: () => now });
  return {
    store,
    async pass(ms) {
      now += ms;
    },
  };
});

describe('in-process store bounds', () => {
  it('evicts the least recently used entries beyond its byte budget, and their tags', async () => {
    const store = createMemorySegmentStore({ maxBytes: 2500, now: () => 0 }); // 3 of 756 B
    const body = 'x'.repeat(500);
    for (const key of ['a', 'b', 'c']) await store.put('b', key, body, [`tag-${key}`], 0, 60_000);
    await store.get('b', 'a'); // a is now more recent than b
    await store.put('b', 'd', body, ['tag-d'], 0, 60_000);
    expect(await store.get('b', 'b')).toBeNull();
    expect(await store.get('b', 'a')).toBe(body);
    expect(store.bytes()).toBeLessThanOrEqual(2500);
    expect(await store.invalidateTags(['tag-b'])).toBe(0);
  });

  it('refuses writes that may predate a forgotten invalidation', async () => {
    const store = createMemorySegmentStore({
      maxBytes: 10_000,
      now: () => 0,
      maxRememberedTags: 2,
    });
    const before = await store.sequence();
    await store.invalidateTags(['t1']);
    await store.invalidateTags(['t2']);
    await store.invalidateTags(['t3']); // t1 is forgotten
    expect(await store.put('b', 'k', 'v', ['t1'], before, 1000)).toBe('refused');
    expect(await store.put('b', 'k', 'v', ['t1'], await store.sequence(), 1000)).toBe('stored');
  });
});
