import * as fc from 'fast-check';
import type { Item } from '../gen/strata/catalog/v1/catalog.js';
import { GetItemResponse, ListItemsResponse } from '../gen/strata/catalog/v1/catalog_service.js';
import { describe, expect, it } from 'vitest';
import {
  decodeGetItemResponse,
  decodeGetItemResponseFast as fastGetItem,
  decodeListItemsResponse,
  decodeListItemsResponseFast as fastListItems,
} from '../gen/strata/catalog/v1/catalog_service_fast_decoders.js';

const text = fc.oneof(
  fc.constant(''),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('é', '日本語', '👩‍👩‍👧 family', 'a'.repeat(300)),
);
// Service values, plus negatives, huge values and pre-1970 dates (the ts-proto fallback).
const int64 = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(0, 1, 127, 128, 2 ** 31, 2 ** 49 - 1, 2 ** 49) },
  { weight: 6, arbitrary: fc.maxSafeNat() },
  { weight: 1, arbitrary: fc.integer({ min: -1_000_000, max: -1 }) },
);
const date = fc.date({
  min: new Date('1950-01-01T00:00:00Z'),
  max: new Date('2200-01-01T00:00:00Z'),
  noInvalidDate: true,
});
const itemOf = (number: fc.Arbitrary<number>, time: fc.Arbitrary<Date>): fc.Arbitrary<Item> =>
  fc.record({
    id: number,
    title: text,
    priceCents: number,
    categoryId: text,
    description: text,
    createTime: fc.option(time, { nil: undefined, freq: 5 }),
    updateTime: fc.option(time, { nil: undefined, freq: 5 }),
    version: number,
  });
const item = itemOf(int64, date);
// What the data service sends: the fast path must decode all of it without falling back.
const serviceItem = itemOf(
  fc.integer({ min: 0, max: 2 ** 48 }),
  fc.date({ min: new Date(0), max: new Date('2200-01-01T00:00:00Z'), noInvalidDate: true }),
);
// A basic-view item (ItemView BASIC): only id, title, price_cents and description on the wire.
const basicServiceItem: fc.Arbitrary<Item> = fc
  .record({
    id: fc.integer({ min: 1, max: 2 ** 48 }),
    title: text,
    priceCents: fc.integer({ min: 0, max: 100_000_000 }),
    description: text,
  })
  .map((basic) => ({
    ...basic,
    categoryId: '',
    createTime: undefined,
    updateTime: undefined,
    version: 0,
  }));
const tags = fc.array(text, { maxLength: 5 });

const listBytes = (m: ListItemsResponse) => Buffer.from(ListItemsResponse.encode(m).finish());
const getBytes = (m: GetItemResponse) => Buffer.from(GetItemResponse.encode(m).finish());

describe('generated fast response decoders', () => {
  it('decode service-shaped responses on the fast path, equal to ts-proto', () => {
    fc.assert(
      fc.property(
        fc.record({ items: fc.array(serviceItem, { maxLength: 20 }), nextPageToken: text, tags }),
        fc.option(serviceItem, { nil: undefined }),
        (list, one) => {
          const bytes = listBytes(list);
          expect(fastListItems(bytes)).toStrictEqual(ListItemsResponse.decode(bytes));
          const oneBytes = getBytes({ item: one, tags: list.tags });
          expect(fastGetItem(oneBytes)).toStrictEqual(GetItemResponse.decode(oneBytes));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('decode basic-view pages on the fast path: the four fields, the rest at defaults', () => {
    fc.assert(
      fc.property(
        fc.record({
          items: fc.array(basicServiceItem, { maxLength: 20 }),
          nextPageToken: text,
          tags,
        }),
        (list) => {
          const bytes = listBytes(list);
          const decoded = fastListItems(bytes);
          expect(decoded).toStrictEqual(ListItemsResponse.decode(bytes));
          expect(decoded).toEqual(list);
        },
      ),
      { numRuns: 1_000 },
    );
    const basic: Item = {
      id: 3,
      title: 'Item 3',
      priceCents: 0,
      categoryId: '',
      description: 'Obsidian lamp',
      createTime: undefined,
      updateTime: undefined,
      version: 0,
    };
    // id 3, title, description: no price, category, times or version on the wire.
    const bytes = listBytes({ items: [basic], nextPageToken: '', tags: ['items'] });
    expect(bytes.toString('hex')).toBe(
      Buffer.concat([
        Buffer.from([0x0a, 25, 0x08, 3, 0x12, 6]),
        Buffer.from('Item 3'),
        Buffer.from([0x2a, 13]),
        Buffer.from('Obsidian lamp'),
        Buffer.from([0x1a, 5]),
        Buffer.from('items'),
      ]).toString('hex'),
    );
    expect(decodeListItemsResponse(bytes).items).toStrictEqual([basic]);
  });

  it('decode ListItemsResponse exactly as ts-proto does', () => {
    fc.assert(
      fc.property(
        fc.record({ items: fc.array(item, { maxLength: 20 }), nextPageToken: text, tags }),
        (message) => {
          const bytes = listBytes(message);
          expect(decodeListItemsResponse(bytes)).toStrictEqual(ListItemsResponse.decode(bytes));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it('decode GetItemResponse exactly as ts-proto does', () => {
    fc.assert(
      fc.property(fc.record({ item: fc.option(item, { nil: undefined }), tags }), (message) => {
        const bytes = getBytes(message);
        expect(decodeGetItemResponse(bytes)).toStrictEqual(GetItemResponse.decode(bytes));
      }),
      { numRuns: 1_000 },
    );
  });

  it('leave unknown fields, negative timestamps and truncated input to ts-proto', () => {
    const base: Item = {
      id: 7,
      title: 'Lampe',
      priceCents: 100,
      categoryId: 'cat-1',
      description: '',
      createTime: new Date('1969-12-31T23:59:59.250Z'),
      updateTime: new Date('2026-01-01T00:00:00Z'),
      version: 3,
    };
    const bytes = getBytes({ item: base, tags: ['item:7'] });
    expect(decodeGetItemResponse(bytes)).toStrictEqual(GetItemResponse.decode(bytes));
    // Field 15 (varint 1) appended: ts-proto skips it, and so does the fallback.
    const unknown = Buffer.concat([bytes, Buffer.from([0x78, 0x01])]);
    expect(decodeGetItemResponse(unknown)).toStrictEqual(GetItemResponse.decode(unknown));
    const truncated = bytes.subarray(0, bytes.length - 3);
    expect(() => decodeGetItemResponse(truncated)).toThrow(RangeError);
    expect(() => GetItemResponse.decode(truncated)).toThrow(RangeError);
  });
});
