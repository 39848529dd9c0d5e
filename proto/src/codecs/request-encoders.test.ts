import * as fc from 'fast-check';
import { ItemView } from '../gen/strata/catalog/v1/catalog.js';
import { GetItemRequest, ListItemsRequest } from '../gen/strata/catalog/v1/catalog_service.js';
import { describe, expect, it } from 'vitest';
import {
  encodeGetItemRequest,
  encodeListItemsRequest,
} from '../gen/strata/catalog/v1/catalog_service_fast_encoders.js';
import { catalogServiceMethods } from '../gen/strata/catalog/v1/catalog_service_methods.js';
import { isEncodableInt32 } from '../wire/varint.js';

const INT32_MAX = 2 ** 31 - 1;
const text = fc.oneof(
  fc.constant(''),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('cat-2', 'é', '日本語', '👩‍👩‍👧 family', 'a'.repeat(300)),
);
// What callers send: page sizes in and beyond the service's range, every view and numbers the
// enum does not name (open enum: they travel as they are).
const pageSize = fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: INT32_MAX }));
const view = fc.oneof(
  fc.constantFrom(
    ItemView.ITEM_VIEW_UNSPECIFIED,
    ItemView.ITEM_VIEW_BASIC,
    ItemView.ITEM_VIEW_FULL,
  ),
  fc.integer({ min: 3, max: INT32_MAX }),
);
const listRequestOf = (size: fc.Arbitrary<number>, shown: fc.Arbitrary<ItemView>) =>
  fc.record({ categoryId: text, query: text, pageSize: size, pageToken: text, view: shown });
const clientListRequest = listRequestOf(pageSize, view);
// Negative numbers (ts-proto's UNRECOGNIZED among them) take ts-proto's ten-byte path.
const negative = fc.integer({ min: -(2 ** 31), max: -1 });
const anyListRequest = listRequestOf(fc.oneof(pageSize, negative), fc.oneof(view, negative));
const id = fc.oneof(fc.constantFrom(0, 1, 127, 128, 2 ** 49), fc.maxSafeNat());

const tsProto = {
  list: (m: ListItemsRequest) => Buffer.from(ListItemsRequest.encode(m).finish()),
  get: (m: GetItemRequest) => Buffer.from(GetItemRequest.encode(m).finish()),
};
const { listItems, getItem } = catalogServiceMethods;

describe('one-pass request encoders', () => {
  it('write what callers send themselves, byte-identical to ts-proto', () => {
    fc.assert(
      fc.property(clientListRequest, id, (list, itemId) => {
        expect(encodeListItemsRequest(list)).toEqual(tsProto.list(list));
        expect(encodeGetItemRequest({ id: itemId })).toEqual(tsProto.get({ id: itemId }));
      }),
      { numRuns: 1_000 },
    );
  });

  it('serialize any request (fast path or fallback) to the same bytes as ts-proto', () => {
    fc.assert(
      fc.property(anyListRequest, fc.oneof(id, negative), (list, itemId) => {
        expect(listItems.requestSerialize(list)).toEqual(tsProto.list(list));
        expect(getItem.requestSerialize({ id: itemId })).toEqual(tsProto.get({ id: itemId }));
      }),
      { numRuns: 1_000 },
    );
  });

  it('decline negative page sizes and views, and ts-proto writes them', () => {
    const base = ListItemsRequest.fromPartial({ categoryId: 'cat-2', pageSize: 20 });
    const declined = [
      { ...base, pageSize: -1 },
      { ...base, view: ItemView.UNRECOGNIZED },
    ];
    for (const request of declined) {
      expect(encodeListItemsRequest(request)).toBeUndefined();
      expect(listItems.requestSerialize(request)).toEqual(tsProto.list(request));
    }
    expect(encodeGetItemRequest({ id: -1 })).toBeUndefined();
    expect(getItem.requestSerialize({ id: -1 })).toEqual(tsProto.get({ id: -1 }));
  });

  it('leave a page size beyond int32 to ts-proto, which refuses it', () => {
    const request = ListItemsRequest.fromPartial({ pageSize: 2 ** 31 });
    expect(encodeListItemsRequest(request)).toBeUndefined();
    expect(() => tsProto.list(request)).toThrow('invalid int32');
    expect(() => listItems.requestSerialize(request)).toThrow('invalid int32');
  });
});

describe('isEncodableInt32', () => {
  it('takes the integers from 0 to 2^31 - 1', () => {
    expect([0, 1, 127, 128, INT32_MAX].map(isEncodableInt32)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it('refuses negatives, fractions, values beyond int32 and non-numbers', () => {
    const refused = [-1, -(2 ** 31), 0.5, 2 ** 31, NaN, Infinity, '1', undefined, null];
    expect(refused.filter(isEncodableInt32)).toEqual([]);
  });
});
