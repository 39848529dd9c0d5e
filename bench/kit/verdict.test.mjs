import { describe, expect, it } from 'vitest';
import { VERDICTS, verdictOf } from './verdict.mjs';

const pages = { better: 'higher', threshold: 0.05 };
const cpu = { better: 'lower', threshold: 0.05 };
const of = (ratio, low, high, count = 8) => ({ ratio, low, high, count });

describe('verdictOf', () => {
  it.each([
    ['a resolved drop past the threshold', of(0.9, 0.87, 0.93), VERDICTS.slower],
    ['a resolved rise past the threshold', of(1.1, 1.06, 1.13), VERDICTS.faster],
    ['a change inside the threshold, interval too', of(0.98, 0.96, 1.01), VERDICTS.same],
    ['an interval exactly on the threshold', of(1, 0.95, 1.05), VERDICTS.same],
    ['a large median whose interval reaches 1', of(0.9, 0.8, 1.02), VERDICTS.unclear],
    ['a small median whose interval leaves the threshold', of(0.97, 0.93, 0.99), VERDICTS.unclear],
    ['an interval wider than the threshold both ways', of(1, 0.9, 1.1), VERDICTS.unclear],
  ])('pages/s: %s', (_case, summary, expected) => {
    expect(verdictOf(summary, pages)).toBe(expected);
  });

  it('reads a lower-is-better metric the other way round', () => {
    expect(verdictOf(of(1.1, 1.06, 1.13), cpu)).toBe(VERDICTS.slower);
    expect(verdictOf(of(0.9, 0.87, 0.93), cpu)).toBe(VERDICTS.faster);
    expect(verdictOf(of(1.0, 0.98, 1.02), cpu)).toBe(VERDICTS.same);
  });

  it('cannot tell from fewer than three rounds, however clear they look', () => {
    expect(verdictOf(of(0.5, 0.5, 0.5, 1), pages)).toBe(VERDICTS.unclear);
    expect(verdictOf(of(0.5, 0.5, 0.5, 2), pages)).toBe(VERDICTS.unclear);
    expect(verdictOf(of(0.5, 0.5, 0.5, 3), pages)).toBe(VERDICTS.slower);
  });

  it('uses the threshold it is given', () => {
    expect(verdictOf(of(0.97, 0.96, 0.98), { better: 'higher', threshold: 0.02 })).toBe(
      VERDICTS.slower,
    );
    expect(verdictOf(of(0.97, 0.96, 0.98), pages)).toBe(VERDICTS.same);
  });
});
