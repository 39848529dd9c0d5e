import { describe, expect, it } from 'vitest';
import { createPrefetchCache, type CacheEntry } from './prefetch-cache.js';
import { DEFAULT_ROUTER_CONSTANTS } from './router-constants.js';

const constants = { ...DEFAULT_ROUTER_CONSTANTS, cacheBudgetBytes: 1000 };

function entry(
  url: string,
  bytes: number,
  tags: string[] = [],
  prefetchTime = 0,
): CacheEntry<string> {
  return {
    url,
    kind: 'auto',
    prefetchTime,
    lastUsedTime: null,
    payload: Promise.resolve(url),
    bytes,
    tags,
  };
}

describe('prefetch cache', () => {
  it('evicts the least recently used entries beyond the byte budget', () => {
    const cache = createPrefetchCache<string>(constants);
    cache.store(entry('/a', 400));
    cache.store(entry('/b', 400));
    cache.markUsed('/a', 1);
    cache.store(entry('/c', 400));
    expect(cache.lookup('/b', 2)).toBeUndefined();
    expect(cache.lookup('/a', 2)?.status).toBe('reusable');
    expect(cache.lookup('/c', 2)?.status).toBe('fresh');
    expect(cache.bytes()).toBe(800);
  });

  it('drops only the entries carrying a revalidated tag', () => {
    const cache = createPrefetchCache<string>(constants);
    cache.store(entry('/items', 10, ['items']));
    cache.store(entry('/items/7', 10, ['item:7']));
    cache.store(entry('/about', 10, []));
    expect(cache.dropTags(['item:7', 'category:cat-1'])).toBe(1);
    expect(cache.lookup('/items/7', 1)).toBeUndefined();
    expect(cache.lookup('/items', 1)).toBeDefined();
    expect(cache.lookup('/about', 1)).toBeDefined();
  });

  it('removes expired entries on lookup and prune', () => {
    const cache = createPrefetchCache<string>(constants);
    cache.store(entry('/old', 10));
    cache.store(entry('/new', 10, [], 200_000));
    expect(cache.lookup('/old', 300_000)).toBeUndefined();
    cache.prune(499_999);
    expect(cache.size()).toBe(1);
    cache.prune(500_000);
    expect(cache.size()).toBe(0);
    expect(cache.bytes()).toBe(0);
  });

  it('re-counts an entry as it streams in', () => {
    const cache = createPrefetchCache<string>(constants);
    cache.store(entry('/a', 0));
    cache.resize('/a', 600, ['items']);
    cache.store(entry('/b', 600));
    expect(cache.lookup('/a', 1)).toBeUndefined();
  });
});
