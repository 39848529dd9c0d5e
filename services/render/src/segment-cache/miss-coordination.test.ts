import type { LoadedSegment, SegmentLookup } from '@strata/web/server';
import { describe, expect, it } from 'vitest';
import { SILENT_EVENTS, type CacheEvents, type WaitOutcome } from './cache-metrics.js';
import { createMemorySegmentStore } from './memory-segment-store.js';
import { createMissLoader } from './miss-coordination.js';
import type { Regenerator } from './regeneration.js';
import type { SegmentStore } from './segment-store.js';

const LIMITS = { waitBudgetMs: 100, lockTtlMs: 1000, pollMs: 10, maxPollMs: 40 };
const lookup: SegmentLookup = {
  build: 'b1',
  segmentId: 'item',
  params: {},
  search: new URLSearchParams(),
  prefetch: false,
};
const loaded = (data: unknown): LoadedSegment => ({
  id: 'item',
  key: 'item',
  tags: [],
  private: false,
  outcome: { status: 'ok', data, deferred: [] },
  deferred: new Map(),
});

function setUp(store?: SegmentStore) {
  let clock = 0;
  const now = () => clock;
  const backing = store ?? createMemorySegmentStore({ maxBytes: 1 << 20, now });
  const calls: string[] = [];
  const waits: WaitOutcome[] = [];
  const bypasses: string[] = [];
  const events: CacheEvents = {
    ...SILENT_EVENTS,
    wait: (outcome) => void waits.push(outcome),
    bypass: (reason) => void bypasses.push(reason),
  };
  const regenerator = {
    regenerate: async (_lookup, load, since) => {
      calls.push(`alone since ${String(since)}`);
      return load();
    },
    underLock: async (_lookup, _key, _token, since, load) => {
      calls.push(`locked since ${since}`);
      return load();
    },
  } as Regenerator;
  const slept: number[] = [];
  const onSleep: { fill?: () => Promise<void> } = {};
  const loadOnMiss = createMissLoader({
    store: backing,
    regenerator,
    events,
    now,
    newToken: () => 'mine',
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
      await onSleep.fill?.();
    },
    limits: LIMITS,
  });
  return { store: backing, loadOnMiss, calls, waits, bypasses, slept, onSleep };
}

describe('createMissLoader', () => {
  it('takes the free lock and loads under it', async () => {
    const { loadOnMiss, calls, waits } = setUp();
    const result = await loadOnMiss(lookup, 'item', async () => loaded('fresh'));
    expect(result.outcome).toMatchObject({ data: 'fresh' });
    expect(calls).toEqual(['locked since 0']);
    expect(waits).toEqual([]);
  });

  it('waits for the replica holding the lock and serves what it stored', async () => {
    const { store, loadOnMiss, calls, waits, slept, onSleep } = setUp();
    await store.acquire('b1', 'item', 'theirs', LIMITS.lockTtlMs);
    const body = JSON.stringify({ v: 1, key: 'item', tags: [], data: 'theirs', storedAt: 0 });
    onSleep.fill = async () => {
      if (slept.length === 2) await store.put('b1', 'item', body, [], 0, 60_000);
    };
    const result = await loadOnMiss(lookup, 'item', async () => loaded('mine'));
    expect(result.outcome).toMatchObject({ data: 'theirs' });
    expect(slept).toEqual([10, 20]);
    expect(calls).toEqual([]);
    expect(waits).toEqual(['filled']);
  });

  it('a navigation gives up after the wait budget and loads alone', async () => {
    const { store, loadOnMiss, calls, waits, slept } = setUp();
    await store.acquire('b1', 'item', 'theirs', LIMITS.lockTtlMs);
    const result = await loadOnMiss(lookup, 'item', async () => loaded('mine'));
    expect(result.outcome).toMatchObject({ data: 'mine' });
    expect(slept.reduce((a, b) => a + b, 0)).toBe(LIMITS.waitBudgetMs);
    expect(calls).toEqual(['alone since 0']);
    expect(waits).toEqual(['gave-up']);
  });

  it('runs the loader uncached when the store fails', async () => {
    const failing = {
      acquire: () => Promise.reject(new Error('down')),
    } as unknown as SegmentStore;
    const { loadOnMiss, calls, bypasses } = setUp(failing);
    const result = await loadOnMiss(lookup, 'item', async () => loaded('mine'));
    expect(result.outcome).toMatchObject({ data: 'mine' });
    expect(calls).toEqual([]);
    expect(bypasses).toEqual(['unavailable']);
  });
});
