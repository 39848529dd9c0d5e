import { FRESH_MS, KEPT_MS } from '@strata/web';
import { describe, expect, it } from 'vitest';
import { classifyAge, decideOnEntry, decideWhileWaiting } from './cache-decisions.js';

const LIMITS = { waitBudgetMs: 2000, lockTtlMs: 7000, pollMs: 10, maxPollMs: 100 };

describe('classifyAge', () => {
  it.each([
    [0, 'fresh'],
    [FRESH_MS - 1, 'fresh'],
    [FRESH_MS, 'stale'],
    [KEPT_MS - 1, 'stale'],
    [KEPT_MS, 'expired'],
    [-5000, 'fresh'], // the clock stepped back
  ])('an entry %i ms old is %s', (age, expected) => {
    expect(classifyAge(1_000_000, 1_000_000 + age)).toBe(expected);
  });
});

describe('decideOnEntry', () => {
  it.each([
    ['no entry', null, 0, false, { serve: 'none' }],
    ['fresh', 0, 1000, false, { serve: 'fresh' }],
    ['stale', 0, FRESH_MS + 1, false, { serve: 'stale', regenerate: true }],
    [
      'stale, already regenerating here',
      0,
      FRESH_MS + 1,
      true,
      { serve: 'stale', regenerate: false },
    ],
    ['expired', 0, KEPT_MS + 1, false, { serve: 'none' }],
  ])('%s', (_name, storedAt, now, regenerating, expected) => {
    expect(decideOnEntry(storedAt, now, regenerating)).toEqual(expected);
  });
});

describe('decideWhileWaiting', () => {
  it('polls with doubling delays capped at maxPollMs', () => {
    const delays = [0, 1, 2, 3, 4, 5].map((attempt) =>
      decideWhileWaiting(0, attempt, false, LIMITS),
    );
    expect(delays.map((d) => (d.next === 'poll' ? d.delayMs : -1))).toEqual([
      10, 20, 40, 80, 100, 100,
    ]);
  });

  it('a navigation gives up after the wait budget and loads alone', () => {
    expect(decideWhileWaiting(1999, 3, false, LIMITS).next).toBe('poll');
    expect(decideWhileWaiting(2000, 3, false, LIMITS)).toEqual({ next: 'load-alone' });
    expect(decideWhileWaiting(1995, 9, false, LIMITS)).toEqual({ next: 'poll', delayMs: 5 });
  });

  it('a prefetch waits until the lock must have expired, never racing a live regenerator', () => {
    expect(decideWhileWaiting(5000, 9, true, LIMITS).next).toBe('poll');
    expect(decideWhileWaiting(7000, 9, true, LIMITS).next).toBe('poll');
    expect(decideWhileWaiting(7010, 9, true, LIMITS)).toEqual({ next: 'load-alone' });
  });
});
