/**
 * The SegmentStore contract, run against both stores (cache-store-memory.test.ts,
 * cache-store-redis.test.ts): entries and expiry, atomic tag invalidation, writes refused when
 * their data predates an invalidation, build drops, owner-only locks, learned shapes.
 */
import { describe, expect, it } from 'vitest';
import type { SegmentStore } from '../src/segment-cache/index.js';

/** A fresh, empty store per test, and a way to let time pass for it. */
export interface StoreFixture {
  readonly store: SegmentStore;
  /** Lets `ms` pass (a fake clock for the memory store, real time for Redis). */
  pass(ms: number): Promise<void>;
}

const TTL = 60_000;

/** Registers the contract tests; `fixture` is called once per test. */
export function segmentStoreContract(name: string, fixture: () => Promise<StoreFixture>): void {
  describe(`SegmentStore contract: ${name}`, () => {
    it('returns null for a key never stored, and the body after a put', async () => {
      const { store } = await fixture();
      expect(await store.get('b1', 'seg(p.id=1)')).toBeNull();
      expect(await store.put('b1', 'seg(p.id=1)', '{"a":1}', ['item:1'], 0, TTL)).toBe('stored');
      expect(await store.get('b1', 'seg(p.id=1)')).toBe('{"a":1}');
      expect(await store.get('b2', 'seg(p.id=1)')).toBeNull();
    });

    it('forgets an entry after its time to live', async () => {
      const { store, pass } = await fixture();
      await store.put('b1', 'short', 'x', [], 0, 150);
      expect(await store.get('b1', 'short')).toBe('x');
      await pass(400);
      expect(await store.get('b1', 'short')).toBeNull();
    });

    it('a put replaces the entry and its tags', async () => {
      const { store } = await fixture();
      await store.put('b1', 'k', 'old', ['a'], 0, TTL);
      await store.put('b1', 'k', 'new', ['b'], 0, TTL);
      expect(await store.get('b1', 'k')).toBe('new');
      await store.invalidateTags(['b']);
      expect(await store.get('b1', 'k')).toBeNull();
    });

    it('invalidating tags removes every entry carrying any of them, in every build', async () => {
      const { store } = await fixture();
      await store.put('b1', 'one', '1', ['item:1', 'items'], 0, TTL);
      await store.put('b2', 'one', '1', ['item:1'], 0, TTL);
      await store.put('b1', 'two', '2', ['item:2', 'items'], 0, TTL);
      await store.put('b1', 'cats', 'c', ['categories'], 0, TTL);
      expect(await store.invalidateTags(['item:1'])).toBe(2);
      expect(await store.get('b1', 'one')).toBeNull();
      expect(await store.get('b2', 'one')).toBeNull();
      expect(await store.get('b1', 'two')).toBe('2');
      expect(await store.invalidateTags(['items', 'nothing'])).toBe(1);
      expect(await store.get('b1', 'two')).toBeNull();
      expect(await store.get('b1', 'cats')).toBe('c');
      expect(await store.invalidateTags([])).toBe(0);
    });

    it('refuses a write whose data was read before one of its tags was invalidated', async () => {
      const { store } = await fixture();
      const before = await store.sequence();
      await store.invalidateTags(['item:7']);
      expect(await store.put('b1', 'seven', 'old', ['item:7'], before, TTL)).toBe('refused');
      expect(await store.get('b1', 'seven')).toBeNull();
      // Other tags are unaffected; data read after the invalidation is kept.
      expect(await store.put('b1', 'eight', 'ok', ['item:8'], before, TTL)).toBe('stored');
      const after = await store.sequence();
      expect(after).toBeGreaterThan(before);
      expect(await store.put('b1', 'seven', 'new', ['item:7'], after, TTL)).toBe('stored');
      expect(await store.get('b1', 'seven')).toBe('new');
    });

    it('dropping a build makes its entries unusable and refuses its older writes', async () => {
      const { store } = await fixture();
      const before = await store.sequence();
      await store.put('b1', 'a', '1', ['x'], before, TTL);
      await store.put('b1', 'b', '2', [], before, TTL);
      await store.put('b2', 'a', '3', ['x'], before, TTL);
      await store.dropBuild('b1');
      expect(await store.get('b1', 'a')).toBeNull();
      expect(await store.get('b1', 'b')).toBeNull();
      expect(await store.get('b2', 'a')).toBe('3');
      expect(await store.put('b1', 'a', 'late', ['x'], before, TTL)).toBe('refused');
      expect(await store.put('b1', 'a', 'fresh', ['x'], await store.sequence(), TTL)).toBe(
        'stored',
      );
      expect(await store.get('b1', 'a')).toBe('fresh');
    });

    it('gives the lock to one owner at a time and lets only the owner release it', async () => {
      const { store } = await fixture();
      const first = await store.acquire('b1', 'k', 'token-a', 10_000);
      const second = await store.acquire('b1', 'k', 'token-b', 10_000);
      expect(first.acquired).toBe(true);
      expect(second.acquired).toBe(false);
      expect((await store.acquire('b1', 'other', 'token-b', 10_000)).acquired).toBe(true);
      expect(await store.release('b1', 'k', 'token-b')).toBe(false);
      expect((await store.acquire('b1', 'k', 'token-c', 10_000)).acquired).toBe(false);
      expect(await store.release('b1', 'k', 'token-a')).toBe(true);
      expect(await store.release('b1', 'k', 'token-a')).toBe(false);
      expect((await store.acquire('b1', 'k', 'token-c', 10_000)).acquired).toBe(true);
    });

    it('a lock expires, so a crashed regenerator does not block its key', async () => {
      const { store, pass } = await fixture();
      expect((await store.acquire('b1', 'k', 'crashed', 150)).acquired).toBe(true);
      await pass(400);
      expect((await store.acquire('b1', 'k', 'next', 10_000)).acquired).toBe(true);
      expect(await store.release('b1', 'k', 'crashed')).toBe(false);
    });

    it('a lock attempt reports the current invalidation sequence', async () => {
      const { store } = await fixture();
      const start = await store.sequence();
      expect((await store.acquire('b1', 'k', 't', 1000)).sequence).toBe(start);
      await store.invalidateTags(['t']);
      const taken = await store.acquire('b1', 'k', 'u', 1000);
      expect(taken.acquired).toBe(false);
      expect(taken.sequence).toBe(start + 1);
    });

    it('keeps the union of every shape member added, per build and segment', async () => {
      const { store } = await fixture();
      expect(await store.readShape('b1', 'seg')).toEqual([]);
      await Promise.all([
        store.addToShape('b1', 'seg', ['!seen', 'p.id']),
        store.addToShape('b1', 'seg', ['!seen', 's.q']),
      ]);
      expect((await store.readShape('b1', 'seg')).sort()).toEqual(['!seen', 'p.id', 's.q']);
      expect(await store.readShape('b2', 'seg')).toEqual([]);
    });
  });
}
