import { describe, expect, it } from 'vitest';
import { entryStatus, type EntryTimes, type PrefetchKind } from './prefetch-entry.js';
import { DEFAULT_ROUTER_CONSTANTS as C } from './router-constants.js';

const at = (kind: PrefetchKind, lastUsedTime: number | null = null): EntryTimes => ({
  kind,
  prefetchTime: 0,
  lastUsedTime,
});

describe(`
    auto entry aging (prefetched at 0 s, never used)
    0 s ── fresh ── 30 s ── stale ── 300 s ── expired
  `, () => {
  it.each([
    [0, 'fresh'],
    [29_999, 'fresh'],
    [30_000, 'stale'],
    [299_999, 'stale'],
    [300_000, 'expired'],
  ] as const)('at %i ms is %s', (now, status) => {
    expect(entryStatus(at('auto'), now, C)).toBe(status);
  });
});

describe(`
    auto entry used at 100 s
    100 s ── reusable ── 130 s ── stale ── 300 s ── expired
  `, () => {
  it.each([
    [100_000, 'reusable'],
    [129_999, 'reusable'],
    [130_000, 'stale'],
    [300_000, 'expired'],
  ] as const)('at %i ms is %s', (now, status) => {
    expect(entryStatus(at('auto', 100_000), now, C)).toBe(status);
  });
});

describe('full entries stay reusable until 300 s; temporary ones are never stale', () => {
  it.each([
    ['full', null, 10_000, 'fresh'],
    ['full', null, 31_000, 'reusable'],
    ['full', null, 299_999, 'reusable'],
    ['full', null, 300_000, 'expired'],
    ['temporary', null, 10_000, 'fresh'],
    ['temporary', 5_000, 34_999, 'reusable'],
    ['temporary', 5_000, 35_000, 'expired'],
  ] as const)('%s used at %s, at %i ms, is %s', (kind, used, now, status) => {
    expect(entryStatus(at(kind, used), now, C)).toBe(status);
  });
});
