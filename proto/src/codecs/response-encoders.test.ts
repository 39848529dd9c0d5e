import * as fc from 'fast-check';
import type { Item } from '../gen/strata/catalog/v1/catalog.js';
import { GetItemResponse, ListItemsResponse } from '../gen/strata/catalog/v1/catalog_service.js';
import { describe, expect, it } from 'vitest';
import {
  encodeGetItemResponse,
  encodeListItemsResponse,
} from '../gen/strata/catalog/v1/catalog_service_fast_encoders.js';
import { catalogServiceMethods } from '../gen/strata/catalog/v1/catalog_service_methods.js';

// Strings that exercise UTF-8 sizing: ASCII, accents, CJK, emoji (surrogate pairs), lone
// surrogates (both encoders write U+FFFD), and the empty string (a skipped proto3 default).
const text = fc.oneof(
  fc.constant(''),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('é', '日本語のテキスト', '👩‍👩‍👧 family', '\ud800', 'x\udfffy', 'a'.repeat(300)),
);

// Mostly what the service produces, plus the edges: zero, varint boundaries, the largest safe
// integer, and values the fast path hands to ts-proto (negative numbers).
const uint = fc.oneof(
  fc.constantFrom(0, 1, 127, 128, 16_383, 16_384, 2 ** 31 - 1, 2 ** 32, Number.MAX_SAFE_INTEGER),
  fc.nat(),
  fc.maxSafeNat(),
);
const int64 = fc.oneof(
  { weight: 8, arbitrary: uint },
  { weight: 1, arbitrary: fc.integer({ min: -1_000_000, max: -1 }) },
);

// Dates from before 1970 (fallback) to far in the future, with and without milliseconds.
const date = fc.oneof(
  fc.date({
    min: new Date('1960-01-01T00:00:00Z'),
    max: new Date('2200-01-01T00:00:00Z'),
    noInvalidDate: true,
  }),
  fc.constantFrom(new Date(0), new Date(999), new Date(1_000), new Date(-1), new Date(-1_500)),
);

// Values as the service produces them (the fast path must take every one), and the full range
// (negative numbers and pre-1970 dates go through ts-proto).
const postEpochDate = fc.date({
  min: new Date(0),
  max: new Date('2200-01-01T00:00:00Z'),
  noInvalidDate: true,
});
function itemOf(number: fc.Arbitrary<number>, time: fc.Arbitrary<Date>): fc.Arbitrary<Item> {
  const maybeTime = fc.option(time, { nil: undefined, freq: 5 });
  return fc.record({
    id: number,
    title: text,
    priceCents: number,
    categoryId: text,
    description: text,
    createTime: maybeTime,
    updateTime: maybeTime,
    version: number,
  });
}
const tags = fc.array(text, { maxLength: 5 });
const listOf = (item: fc.Arbitrary<Item>) =>
  fc.record({ items: fc.array(item, { maxLength: 30 }), nextPageToken: text, tags });
const getOf = (item: fc.Arbitrary<Item>) =>
  fc.record({ item: fc.option(item, { nil: undefined }), tags });

const serviceItem = itemOf(
  uint,
  fc.oneof(postEpochDate, fc.constantFrom(new Date(0), new Date(999))),
);
// ItemView BASIC: id, title, price_cents and description; every other field at its default.
const basicItemOf = (number: fc.Arbitrary<number>): fc.Arbitrary<Item> =>
  fc.record({ id: number, title: text, priceCents: number, description: text }).map((basic) => ({
    ...basic,
    categoryId: '',
    createTime: undefined,
    updateTime: undefined,
    version: 0,
  }));
const serviceBasicItem = basicItemOf(uint);
const anyItem = fc.oneof(itemOf(int64, date), basicItemOf(int64));

const tsProto = {
  list: (m: ListItemsResponse) => Buffer.from(ListItemsResponse.encode(m).finish()),
  get: (m: GetItemResponse) => Buffer.from(GetItemResponse.encode(m).finish()),
};
const { listItems, getItem } = catalogServiceMethods;

describe('one-pass response encoders', () => {
  it('write service-shaped ListItemsResponse and GetItemResponse themselves, byte-identical to ts-proto', () => {
    fc.assert(
      fc.property(listOf(serviceItem), (message) => {
        expect(encodeListItemsResponse(message)).toEqual(tsProto.list(message));
      }),
      { numRuns: 1_000 },
    );
    fc.assert(
      fc.property(getOf(serviceItem), (message) => {
        expect(encodeGetItemResponse(message)).toEqual(tsProto.get(message));
      }),
      { numRuns: 1_000 },
    );
  });

  it('write basic-view pages themselves, byte-identical to ts-proto (defaults not written)', () => {
    fc.assert(
      fc.property(listOf(serviceBasicItem), (message) => {
        const bytes = encodeListItemsResponse(message);
        expect(bytes).toEqual(tsProto.list(message));
        // The same items with a category and a version: 9 more bytes each ("cat-1", 1).
        const items = message.items.map((item) => ({ ...item, categoryId: 'cat-1', version: 1 }));
        const fullSize = tsProto.list({ ...message, items }).length;
        expect(fullSize - bytes!.length).toBeGreaterThanOrEqual(9 * items.length);
      }),
      { numRuns: 1_000 },
    );
  });

  it('serialize any ListItemsResponse (fast path or fallback) to the same bytes as ts-proto', () => {
    fc.assert(
      fc.property(listOf(anyItem), (message) => {
        expect(listItems.responseSerialize(message)).toEqual(tsProto.list(message));
      }),
      { numRuns: 1_000 },
    );
  });

  it('serialize any GetItemResponse (fast path or fallback) to the same bytes as ts-proto', () => {
    fc.assert(
      fc.property(getOf(anyItem), (message) => {
        expect(getItem.responseSerialize(message)).toEqual(tsProto.get(message));
      }),
      { numRuns: 1_000 },
    );
  });
  it('handle the service’s own values itself and decline only what it cannot write', () => {
    const base: Item = {
      id: 42,
      title: 'Lampe « Été » 💡',
      priceCents: 0,
      categoryId: '',
      description: 'x'.repeat(200),
      createTime: new Date('2026-11-23T10:00:00.123Z'),
      updateTime: new Date('2026-11-23T10:00:00Z'),
      version: 1,
    };
    const page = { items: [base, { ...base, id: 43 }], nextPageToken: 'next', tags: ['items'] };
    expect(encodeListItemsResponse(page)).toEqual(tsProto.list(page));
    expect(encodeGetItemResponse({ item: undefined, tags: [] })).toEqual(Buffer.alloc(0));

    const declined: Item[] = [
      { ...base, createTime: new Date('1969-12-31T23:59:59.500Z') },
      { ...base, priceCents: -1 },
      { ...base, version: 2 ** 60 },
    ];
    for (const odd of declined) {
      expect(encodeGetItemResponse({ item: odd, tags: [] })).toBeUndefined();
      const message = { items: [base, odd], nextPageToken: '', tags: [] };
      expect(encodeListItemsResponse(message)).toBeUndefined();
      expect(listItems.responseSerialize(message)).toEqual(tsProto.list(message));
    }
  });

  it('fail the same way as ts-proto on an invalid date', () => {
    const message = {
      item: { ...(fc.sample(serviceItem, 1)[0] as Item), createTime: new Date(NaN) },
      tags: [],
    };
    expect(() => tsProto.get(message)).toThrow(/NaN/);
    expect(() => getItem.responseSerialize(message)).toThrow(/NaN/);
  });
});
