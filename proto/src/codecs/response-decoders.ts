/**
 * Hand-written responseDeserialize for the render service's hot reads (ListItemsResponse,
 * GetItemResponse). ts-proto decodes every int64 through int64 → string → Number
 * (longToNumber) and builds Timestamps before Dates: ≈100 µs of the render service's CPU per
 * 100-item page (bench/render/RESULTS.md). These read the same messages straight into the same
 * shapes, and hand anything unusual (negative or huge numbers, unknown fields, truncation) to
 * ts-proto. response-decoders.test.ts checks equality with ts-proto on random messages.
 */
import type { Item } from '../gen/strata/catalog/v1/catalog.js';
import { GetItemResponse, ListItemsResponse } from '../gen/strata/catalog/v1/catalog_service.js';
import { withFallback } from './with-fallback.js';
import { ProtoReader, Unsupported, unsupported } from './proto-reader.js';

/** google.protobuf.Timestamp → Date, as ts-proto's fromTimestamp computes it. */
function readTimestamp(reader: ProtoReader): Date {
  const { start, end } = reader.delimited();
  const inner = new ProtoReader(reader.buf, start, end);
  let seconds = 0;
  let nanos = 0;
  while (inner.pos < end) {
    const tag = inner.uint();
    if (tag === 8) seconds = inner.uint();
    else if (tag === 16) {
      nanos = inner.uint();
      if (nanos > 0x7fffffff) unsupported();
    } else unsupported();
  }
  return new Date(seconds * 1_000 + nanos / 1_000_000);
}

function readItem(reader: ProtoReader): Item {
  const { start, end } = reader.delimited();
  const inner = new ProtoReader(reader.buf, start, end);
  const item: Item = {
    id: 0,
    title: '',
    priceCents: 0,
    categoryId: '',
    description: '',
    createTime: undefined,
    updateTime: undefined,
    version: 0,
  };
  while (inner.pos < end) {
    switch (inner.uint()) {
      case 8:
        item.id = inner.uint();
        break;
      case 18:
        item.title = inner.string();
        break;
      case 24:
        item.priceCents = inner.uint();
        break;
      case 34:
        item.categoryId = inner.string();
        break;
      case 42:
        item.description = inner.string();
        break;
      case 50:
        item.createTime = readTimestamp(inner);
        break;
      case 58:
        item.updateTime = readTimestamp(inner);
        break;
      case 64:
        item.version = inner.uint();
        break;
      default:
        unsupported();
    }
  }
  return item;
}

/** The fast path alone (throws Unsupported where ts-proto must decode). */
export function fastListItems(buf: Buffer): ListItemsResponse {
  const reader = new ProtoReader(buf);
  const message: ListItemsResponse = { items: [], nextPageToken: '', tags: [] };
  while (reader.pos < reader.end) {
    const tag = reader.uint();
    if (tag === 10) message.items.push(readItem(reader));
    else if (tag === 18) message.nextPageToken = reader.string();
    else if (tag === 26) message.tags.push(reader.string());
    else unsupported();
  }
  return message;
}

/** The fast path alone (throws Unsupported where ts-proto must decode). */
export function fastGetItem(buf: Buffer): GetItemResponse {
  const reader = new ProtoReader(buf);
  const message: GetItemResponse = { item: undefined, tags: [] };
  while (reader.pos < reader.end) {
    const tag = reader.uint();
    if (tag === 10) message.item = readItem(reader);
    else if (tag === 18) message.tags.push(reader.string());
    else unsupported();
  }
  return message;
}

/** Runs a fast decoder, declining (undefined) where it throws Unsupported. */
function declining<T>(fast: (buf: Buffer) => T): (buf: Buffer) => T | undefined {
  return (buf) => {
    try {
      return fast(buf);
    } catch (error) {
      if (error instanceof Unsupported) return undefined;
      throw error;
    }
  };
}

/** ListItemsResponse from the wire, as ts-proto's decode returns it. */
export const decodeListItemsResponse = withFallback(declining(fastListItems), (buf) =>
  ListItemsResponse.decode(buf),
);

/** GetItemResponse from the wire, as ts-proto's decode returns it. */
export const decodeGetItemResponse = withFallback(declining(fastGetItem), (buf) =>
  GetItemResponse.decode(buf),
);
