import { describe, expect, it } from 'vitest';
import { roundOrder, summariseAb } from './ab-summary.mjs';
import { VERDICTS } from './verdict.mjs';

const metrics = [
  { key: 'rps', label: 'pages/s', better: 'higher' },
  { key: 'cpu', label: 'CPU ms/page', better: 'lower' },
];

describe('roundOrder', () => {
  it('alternates A,B and B,A', () => {
    expect([0, 1, 2, 3].map(roundOrder)).toEqual([
      ['A', 'B'],
      ['B', 'A'],
      ['A', 'B'],
      ['B', 'A'],
    ]);
  });
});

describe('summariseAb', () => {
  const rounds = [0.88, 0.9, 0.91, 0.89, 0.9, 0.92, 0.9, 0.89].map((factor, i) => ({
    order: roundOrder(i).join(''),
    A: { rps: 1000 + i, cpu: 1 },
    B: { rps: (1000 + i) * factor, cpu: 1.0 + (i % 2) * 0.01 },
  }));
  const [rps, cpu] = summariseAb(rounds, metrics);

  it('takes each round B ÷ A and their median', () => {
    expect(rps.ratios).toHaveLength(8);
    expect(rps.ratios[0]).toBeCloseTo(0.88);
    expect(rps.ratio).toBeCloseTo(0.9);
    expect(rps.a).toBeCloseTo(1003.5);
  });

  it('calls a steady 10% drop in pages/s slower and unchanged CPU the same', () => {
    expect(rps.low).toBeLessThan(rps.high);
    expect(rps.high).toBeLessThan(0.95);
    expect(rps.verdict).toBe(VERDICTS.slower);
    expect(cpu.verdict).toBe(VERDICTS.same);
  });

  it('keeps the metric description next to its numbers', () => {
    expect(cpu).toMatchObject({ key: 'cpu', label: 'CPU ms/page', better: 'lower' });
  });
});
