/**
 * The SegmentStore contract against Redis (redis:7-bookworm through testcontainers), each test
 * in its own key namespace, plus what only Redis can do: fail safe when maxmemory eviction
 * takes a tag set before the entries it lists.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSegmentStore, redisKeys } from '../src/segment-cache/index.js';
import { segmentStoreContract } from './cache-store.contract.js';
import { startTestRedis, type TestRedis } from '@strata/testing';

let redis: TestRedis;
let client: Redis;
let namespace = 0;
beforeAll(async () => {
  redis = await startTestRedis();
  client = new Redis(redis.url);
});
afterAll(async () => {
  await client?.quit();
  await redis?.kill();
});

const nextPrefix = () => `test:${process.pid}:${++namespace}:`;

segmentStoreContract('redis', async () => ({
  store: createRedisSegmentStore(client, nextPrefix()),
  pass: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}));

describe('Redis store specifics', () => {
  it('treats an entry whose tag set was evicted as missing (never stale)', async () => {
    const prefix = nextPrefix();
    const store = createRedisSegmentStore(client, prefix);
    await store.put('b1', 'k', 'v', ['item:1', 'items'], 0, 60_000);
    // What `maxmemory-policy volatile-lru` may do to any key with a TTL.
    await client.del(`${redisKeys(prefix).tagSetPrefix}items`);
    expect(await store.get('b1', 'k')).toBeNull();
    expect(await client.exists(redisKeys(prefix).entry('b1', 'k'))).toBe(0);
  });

  it('gives every key it writes an expiry (volatile-lru may evict any of them)', async () => {
    const prefix = nextPrefix();
    const store = createRedisSegmentStore(client, prefix);
    await store.put('b1', 'k', 'v', ['t'], 0, 60_000);
    await store.acquire('b1', 'k', 'tok', 5000);
    await store.invalidateTags(['u']);
    await store.addToShape('b1', 'seg', ['!seen']);
    await store.dropBuild('b0');
    const keys = await client.keys(`${prefix}*`);
    const withoutTtl = [];
    for (const key of keys) if ((await client.pttl(key)) < 0) withoutTtl.push(key);
    // Only the invalidation counter lives forever (a single small integer).
    expect(withoutTtl).toEqual([redisKeys(prefix).sequence]);
  });

  it('survives a build id with glob and separator characters', async () => {
    const store = createRedisSegmentStore(client, nextPrefix());
    await store.put('a*:b', 'k', 'v', [], 0, 60_000);
    await store.put('a', 'k', 'w', [], 0, 60_000);
    await store.dropBuild('a*:b');
    expect(await store.get('a*:b', 'k')).toBeNull();
    expect(await store.get('a', 'k')).toBe('w');
  });
});
