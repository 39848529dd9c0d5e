import { describe, expect, it } from 'vitest';
import { ratiosToReference, rotationMarkdown, rotationOrder } from './rotation.mjs';

describe('rotationOrder', () => {
  it('reverses every other round and moves one place along every pair of rounds', () => {
    const labels = ['a', 'b', 'c'];
    expect(rotationOrder(labels, 0)).toEqual(['a', 'b', 'c']);
    expect(rotationOrder(labels, 1)).toEqual(['c', 'b', 'a']);
    expect(rotationOrder(labels, 2)).toEqual(['b', 'c', 'a']);
    expect(rotationOrder(labels, 3)).toEqual(['a', 'c', 'b']);
  });

  it('puts every side first and last over as many rounds as there are sides, twice', () => {
    const labels = ['a', 'b', 'c', 'd'];
    const orders = Array.from({ length: 8 }, (_, round) => rotationOrder(labels, round));
    expect(new Set(orders.map((order) => order[0]))).toEqual(new Set(labels));
    expect(new Set(orders.map((order) => order.at(-1)))).toEqual(new Set(labels));
  });

  it('does not reorder its argument', () => {
    const labels = ['a', 'b'];
    rotationOrder(labels, 1);
    expect(labels).toEqual(['a', 'b']);
  });
});

describe('ratiosToReference', () => {
  const rounds = [
    { ref: { rate: 100, cpu: 2 }, x: { rate: 90, cpu: 2.2 } },
    // A slower machine in this round: the ratio stays the same.
    { ref: { rate: 50, cpu: 4 }, x: { rate: 45, cpu: 4.4 } },
    { ref: { rate: 100, cpu: 2 }, x: { rate: 110, cpu: 2 } },
  ];

  it('divides by the reference round by round and takes the median and range', () => {
    const summary = ratiosToReference(rounds, 'ref', ['rate', 'cpu']);
    expect(summary.ref.rate).toEqual({ median: 1, low: 1, high: 1 });
    expect(summary.x.rate.median).toBeCloseTo(0.9);
    expect(summary.x.rate.low).toBeCloseTo(0.9);
    expect(summary.x.rate.high).toBeCloseTo(1.1);
    expect(summary.x.cpu.median).toBeCloseTo(1.1);
  });

  it('refuses an unknown reference and no rounds', () => {
    expect(() => ratiosToReference(rounds, 'nope', ['rate'])).toThrow('no side called nope');
    expect(() => ratiosToReference([], 'ref', ['rate'])).toThrow('no rounds');
  });
});

describe('rotationMarkdown', () => {
  it('writes one row per side with its median and range', () => {
    const summary = ratiosToReference(
      [
        { ref: { rate: 100 }, x: { rate: 95 } },
        { ref: { rate: 100 }, x: { rate: 97 } },
      ],
      'ref',
      ['rate'],
    );
    const table = rotationMarkdown(
      summary,
      ['ref', 'x'],
      [{ key: 'rate', label: 'pages/s' }],
      'ref',
    );
    expect(table.split('\n')).toEqual([
      '| side | pages/s ÷ ref |',
      '|---|---:|',
      '| ref | 1.000 (1.00–1.00) |',
      '| x | 0.960 (0.95–0.97) |',
    ]);
  });
});
