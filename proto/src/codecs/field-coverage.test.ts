/**
 * The generated fast codecs cover every field the .proto gives their messages, requests
 * included. Each message is filled from its generated type's own field list (so a field added
 * to the .proto and regenerated is filled too) with a value that is not the default; the fast
 * decoders must read it without falling back and the fast encoders must write exactly what
 * ts-proto writes. A field the codecs do not know fails here, instead of silently costing the
 * fallback on every call.
 */
import { describe, expect, it } from 'vitest';
import { Item } from '../gen/strata/catalog/v1/catalog.js';
import {
  GetItemRequest,
  GetItemResponse,
  ListItemsRequest,
  ListItemsResponse,
} from '../gen/strata/catalog/v1/catalog_service.js';
import {
  decodeGetItemResponseFast as fastGetItem,
  decodeListItemsResponseFast as fastListItems,
} from '../gen/strata/catalog/v1/catalog_service_fast_decoders.js';
import {
  encodeGetItemRequest,
  encodeGetItemResponse,
  encodeListItemsRequest,
  encodeListItemsResponse,
} from '../gen/strata/catalog/v1/catalog_service_fast_encoders.js';

/** A value unlike the default for each field of `empty` (the generated fromPartial({})). */
function everyFieldSet(
  empty: Record<string, unknown>,
  nested: Record<string, unknown> = {},
): Record<string, unknown> {
  const filled: Record<string, unknown> = {};
  for (const [field, initial] of Object.entries(empty)) {
    if (field in nested) filled[field] = nested[field];
    else if (typeof initial === 'number') filled[field] = 7;
    else if (typeof initial === 'string') filled[field] = `${field} é`;
    else if (typeof initial === 'boolean') filled[field] = true;
    else if (Array.isArray(initial)) filled[field] = [`${field} 1`, `${field} 2`];
    // Optional message fields start undefined; Item's are Timestamps (Dates here).
    else if (initial === undefined) filled[field] = new Date('2026-01-02T03:04:05.678Z');
    else throw new Error(`no test value for ${field}`);
  }
  return filled;
}

const item = everyFieldSet(Item.fromPartial({}) as never) as unknown as Item;
const list = everyFieldSet(ListItemsResponse.fromPartial({}) as never, {
  items: [item, item],
}) as unknown as ListItemsResponse;
const one = everyFieldSet(GetItemResponse.fromPartial({}) as never, {
  item,
}) as unknown as GetItemResponse;
const listRequest = everyFieldSet(
  ListItemsRequest.fromPartial({}) as never,
) as unknown as ListItemsRequest;
const getRequest = everyFieldSet(
  GetItemRequest.fromPartial({}) as never,
) as unknown as GetItemRequest;

describe('the fast codecs cover every field of', () => {
  it('ListItemsResponse and its Items', () => {
    const bytes = Buffer.from(ListItemsResponse.encode(list).finish());
    expect(fastListItems(bytes)).toEqual(ListItemsResponse.decode(bytes));
    expect(encodeListItemsResponse(list)).toEqual(bytes);
  });

  it('GetItemResponse and its Item', () => {
    const bytes = Buffer.from(GetItemResponse.encode(one).finish());
    expect(fastGetItem(bytes)).toEqual(GetItemResponse.decode(bytes));
    expect(encodeGetItemResponse(one)).toEqual(bytes);
  });

  it('ListItemsRequest and GetItemRequest', () => {
    expect(encodeListItemsRequest(listRequest)).toEqual(
      Buffer.from(ListItemsRequest.encode(listRequest).finish()),
    );
    expect(encodeGetItemRequest(getRequest)).toEqual(
      Buffer.from(GetItemRequest.encode(getRequest).finish()),
    );
  });

  it('(the check fails for a field the codecs do not know)', () => {
    // An unknown field number 15 (varint 1) appended to a valid Item inside a list.
    const itemBytes = Buffer.concat([
      Buffer.from(Item.encode(item).finish()),
      Buffer.from([0x78, 1]),
    ]);
    expect(itemBytes.length).toBeLessThan(128); // its length fits the one byte written below
    const bytes = Buffer.concat([Buffer.from([0x0a, itemBytes.length]), itemBytes]);
    expect(() => fastListItems(bytes)).toThrow('left to ts-proto');
  });
});
