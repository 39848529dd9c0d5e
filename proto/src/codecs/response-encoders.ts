/**
 * One-pass encoders for the hot read responses (ListItemsResponse, GetItemResponse).
 *
 * Why hand-written: ts-proto's encoder (on @bufbuild/protobuf's BinaryWriter) copies every nested
 * Item and Timestamp at join(), allocates one Uint8Array per string and copies the whole message
 * again in Buffer.from(...finish()), which made it the largest single cost of ListItems over gRPC
 * (bench/data/RESULTS.md has the figures). These measure every field first, allocate one Buffer
 * and write strings straight into it, with byte-identical output (response-encoders.test.ts
 * checks it against ts-proto on random messages).
 *
 * Each returns undefined for values it does not handle; the serializer then uses ts-proto.
 */
import type { Item } from '../gen/strata/catalog/v1/catalog.js';
import type {
  GetItemResponse,
  ListItemsResponse,
} from '../gen/strata/catalog/v1/catalog_service.js';
import { measureItem, newItemLayout, writeItem, type ItemLayout } from './item-encoding.js';
import { delimitedFieldSize, writeStringField, writeVarint } from './varint.js';

/** UTF-8 sizes of a repeated string field's values, or undefined if one is not a string. */
function measureStrings(values: readonly unknown[]): number[] | undefined {
  const sizes: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (typeof value !== 'string') return undefined;
    sizes.push(Buffer.byteLength(value, 'utf8'));
  }
  return sizes;
}

const repeatedStringsSize = (sizes: readonly number[]) =>
  sizes.reduce((total, size) => total + delimitedFieldSize(size), 0);

function writeRepeatedStrings(
  buf: Buffer,
  pos: number,
  tag: number,
  values: readonly string[],
  sizes: readonly number[],
): number {
  for (let i = 0; i < values.length; i++)
    pos = writeStringField(buf, pos, tag, values[i]!, sizes[i]!);
  return pos;
}

function writeItemField(
  buf: Buffer,
  pos: number,
  tag: number,
  item: Item,
  layout: ItemLayout,
): number {
  buf[pos++] = tag;
  pos = writeVarint(buf, pos, layout.bodySize);
  return writeItem(buf, pos, item, layout);
}

function checkedSize(buf: Buffer, end: number): Buffer {
  // A mismatch would mean a sizing bug: fail loudly rather than send a corrupt message.
  if (end !== buf.length) throw new Error(`response encoder wrote ${end} of ${buf.length} bytes`);
  return buf;
}

/** ListItemsResponse → wire bytes, or undefined to fall back to ts-proto. */
export function encodeListItemsResponse(message: ListItemsResponse): Buffer | undefined {
  const { items, nextPageToken, tags } = message;
  if (!Array.isArray(items) || !Array.isArray(tags) || typeof nextPageToken !== 'string')
    return undefined;
  const layouts: ItemLayout[] = [];
  let size = 0;
  for (let i = 0; i < items.length; i++) {
    const layout = newItemLayout();
    const bodySize = measureItem(items[i]!, layout);
    if (bodySize < 0) return undefined;
    layouts.push(layout);
    size += delimitedFieldSize(bodySize);
  }
  const tokenSize = nextPageToken === '' ? 0 : Buffer.byteLength(nextPageToken, 'utf8');
  if (tokenSize) size += delimitedFieldSize(tokenSize);
  const tagSizes = measureStrings(tags);
  if (!tagSizes) return undefined;
  size += repeatedStringsSize(tagSizes);

  const buf = Buffer.allocUnsafe(size);
  let pos = 0;
  for (let i = 0; i < items.length; i++) pos = writeItemField(buf, pos, 10, items[i]!, layouts[i]!);
  if (tokenSize) pos = writeStringField(buf, pos, 18, nextPageToken, tokenSize);
  pos = writeRepeatedStrings(buf, pos, 26, tags, tagSizes);
  return checkedSize(buf, pos);
}

/** GetItemResponse → wire bytes, or undefined to fall back to ts-proto. */
export function encodeGetItemResponse(message: GetItemResponse): Buffer | undefined {
  const { item, tags } = message;
  if (!Array.isArray(tags)) return undefined;
  const layout = newItemLayout();
  let size = 0;
  if (item !== undefined) {
    const bodySize = item === null ? -1 : measureItem(item, layout);
    if (bodySize < 0) return undefined;
    size += delimitedFieldSize(bodySize);
  }
  const tagSizes = measureStrings(tags);
  if (!tagSizes) return undefined;
  size += repeatedStringsSize(tagSizes);

  const buf = Buffer.allocUnsafe(size);
  let pos = 0;
  if (item !== undefined) pos = writeItemField(buf, pos, 10, item, layout);
  pos = writeRepeatedStrings(buf, pos, 18, tags, tagSizes);
  return checkedSize(buf, pos);
}
