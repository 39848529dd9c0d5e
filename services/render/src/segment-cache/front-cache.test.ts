import { FRESH_MS } from '@strata/web';
import { describe, expect, it } from 'vitest';
import { createFrontCache } from './front-cache.js';

const entry = (tags: string[], storedAt = 0) => ({
  v: 1 as const,
  key: 'k',
  tags,
  data: { x: 1 },
  storedAt,
});

describe('front cache', () => {
  it('serves only fresh entries', () => {
    const front = createFrontCache(10_000);
    front.put('b', 'k', entry(['t']), 100, front.epoch());
    expect(front.get('b', 'k', FRESH_MS - 1)).toBeDefined();
    expect(front.get('b', 'k', FRESH_MS)).toBeUndefined();
    expect(front.bytes()).toBe(0);
  });

  it('drops entries by tag and everything on clear', () => {
    const front = createFrontCache(10_000);
    front.put('b', 'one', entry(['item:1', 'items']), 100, front.epoch());
    front.put('b', 'two', entry(['item:2', 'items']), 100, front.epoch());
    front.put('b', 'cats', entry(['categories']), 100, front.epoch());
    front.invalidateTags(['item:1']);
    expect(front.get('b', 'one', 0)).toBeUndefined();
    expect(front.get('b', 'two', 0)).toBeDefined();
    front.invalidateTags(['items']);
    expect(front.get('b', 'two', 0)).toBeUndefined();
    front.clear();
    expect(front.get('b', 'cats', 0)).toBeUndefined();
  });

  it('refuses an entry read before an invalidation that arrived since', () => {
    const front = createFrontCache(10_000);
    const epoch = front.epoch();
    front.invalidateTags(['unrelated']);
    front.put('b', 'k', entry(['t']), 100, epoch);
    expect(front.get('b', 'k', 0)).toBeUndefined();
  });

  it('stays within its byte budget', () => {
    const front = createFrontCache(250);
    for (const key of ['a', 'b', 'c']) front.put('b', key, entry([key]), 100, front.epoch());
    expect(front.bytes()).toBe(200);
    expect(front.get('b', 'a', 0)).toBeUndefined();
    front.invalidateTags(['a']); // its tag index was cleaned up with it
    expect(front.get('b', 'c', 0)).toBeDefined();
  });
});
