import { describe, expect, it } from 'vitest';
import {
  bootstrapMedianInterval,
  median,
  nearestRank,
  quantile,
  seededRandom,
  valueAt,
} from './stats.mjs';

describe('median', () => {
  it('is the middle value of an odd count, whatever the order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([10, 0.5, 7, 1, 9])).toBe(7);
  });

  it('is the mean of the middle two of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('does not reorder its argument', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it('refuses no values', () => {
    expect(() => median([])).toThrow('no values');
  });
});

describe('quantile', () => {
  it('interpolates between order statistics', () => {
    expect(quantile([0, 10], 0.25)).toBe(2.5);
    expect(quantile([5, 1, 3], 0)).toBe(1);
    expect(quantile([5, 1, 3], 1)).toBe(5);
    expect(quantile([5, 1, 3], 0.5)).toBe(3);
  });
});

describe('seededRandom', () => {
  it('repeats for a seed, differs between seeds, stays in [0, 1)', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const c = seededRandom(8);
    const first = Array.from({ length: 100 }, a);
    expect(Array.from({ length: 100 }, b)).toEqual(first);
    expect(Array.from({ length: 100 }, c)).not.toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
  });
});

describe('bootstrapMedianInterval', () => {
  it('is a single point when every value agrees', () => {
    expect(bootstrapMedianInterval([0.9, 0.9, 0.9, 0.9])).toEqual({ low: 0.9, high: 0.9 });
  });

  it('contains the median and lies within the values', () => {
    const values = [0.91, 0.95, 0.97, 0.98, 1.0, 1.02, 0.96, 0.99];
    const { low, high } = bootstrapMedianInterval(values);
    expect(low).toBeLessThanOrEqual(median(values));
    expect(high).toBeGreaterThanOrEqual(median(values));
    expect(low).toBeGreaterThanOrEqual(0.91);
    expect(high).toBeLessThanOrEqual(1.02);
  });

  it('is wider for scattered values than for tight ones', () => {
    const tight = bootstrapMedianInterval([0.99, 1.0, 1.01, 1.0, 0.99, 1.01, 1.0, 1.0]);
    const wide = bootstrapMedianInterval([0.8, 1.2, 0.9, 1.1, 0.85, 1.15, 1.0, 0.95]);
    expect(wide.high - wide.low).toBeGreaterThan(3 * (tight.high - tight.low));
  });

  it('gives the same interval for the same seed', () => {
    const values = [1, 2, 3, 4, 5, 6, 7];
    expect(bootstrapMedianInterval(values, { random: seededRandom(3) })).toEqual(
      bootstrapMedianInterval(values, { random: seededRandom(3) }),
    );
  });
});

describe('valueAt', () => {
  const samples = [
    [0, 10],
    [100, 20],
    [200, 40],
  ];

  it('reads linearly between the samples around t', () => {
    expect(valueAt(samples, 50)).toBe(15);
    expect(valueAt(samples, 150)).toBe(30);
    expect(valueAt(samples, 100)).toBe(20);
  });

  it('holds the first and last value outside the samples', () => {
    expect(valueAt(samples, -5)).toBe(10);
    expect(valueAt(samples, 500)).toBe(40);
    expect(() => valueAt([], 1)).toThrow('no samples');
  });
});

describe('nearestRank', () => {
  it('picks an observed value: the smallest with a q share at or below it', () => {
    const values = [5, 1, 4, 2, 3];
    expect(nearestRank(values, 0.5)).toBe(3);
    expect(nearestRank(values, 0.9)).toBe(5);
    expect(nearestRank(values, 0)).toBe(1);
    expect(nearestRank([1, 2, 3, 4], 0.5)).toBe(2);
    expect(nearestRank([], 0.5)).toBeNaN();
  });
});
