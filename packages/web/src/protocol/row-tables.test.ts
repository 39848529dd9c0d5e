import { describe, expect, it } from 'vitest';
import { LITERAL, ROWS, packRows, unpackRows } from './row-tables.js';

const roundTrip = (value: unknown) => unpackRows(JSON.parse(JSON.stringify(packRows(value))));
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('row tables', () => {
  it('writes the keys of a list of like records once', () => {
    const items = [
      { id: 1, title: 'a', price: 100 },
      { id: 2, title: 'b', price: 200 },
    ];
    expect(packRows({ items })).toEqual({
      items: [ROWS, ['id', 'title', 'price'], 1, 'a', 100, 2, 'b', 200],
    });
    expect(roundTrip({ items })).toEqual({ items });
    expect(JSON.stringify(packRows({ items })).length).toBeLessThan(
      JSON.stringify({ items }).length,
    );
  });

  it.each([
    ['nested lists', { rows: [{ a: [{ x: 1 }, { x: 2 }] }, { a: [] }] }],
    ['different keys', [{ a: 1 }, { b: 2 }]],
    [
      'same keys, other order',
      [
        { a: 1, b: 2 },
        { b: 3, a: 4 },
      ],
    ],
    [
      'undefined values',
      [
        { a: 1, b: undefined },
        { a: 2, b: 3 },
      ],
    ],
    [
      'functions',
      [
        { a: 1, f: () => 1 },
        { a: 2, f: () => 2 },
      ],
    ],
    ['dates and class instances', [{ at: new Date(0) }, { at: new Date(1) }, new Map()]],
    ['a single record', [{ a: 1 }]],
    ['empty records', [{}, {}]],
    ['scalars and null', [1, 'two', null, true, { a: null }]],
    ['arrays that start with the markers', [[ROWS, ['a'], 1], [LITERAL, 2], { k: [ROWS] }]],
    ['records holding the markers', [{ a: ROWS }, { a: LITERAL }]],
    ['hostile strings', [{ t: '</script><script>alert(1)</script>\u2028' }, { t: '<!--' }]],
  ])('gives back exactly the JSON value: %s', (_name, value) => {
    expect(roundTrip(value)).toEqual(asJson(value));
  });

  it('keeps a "__proto__" key as data', () => {
    const value = JSON.parse(
      '[{"__proto__":{"polluted":1}},{"__proto__":{"polluted":2}}]',
    ) as unknown;
    const back = roundTrip(value) as Record<string, unknown>[];
    expect(Object.getPrototypeOf(back[0])).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(back[0])).toEqual(['__proto__']);
  });
});
