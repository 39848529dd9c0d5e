/**
 * Sizing and writing of strata.catalog.v1.Item in one pass over a preallocated Buffer, with the
 * exact bytes ts-proto's Item.encode produces (fields in number order, proto3 defaults skipped,
 * timestamps as ts-proto's toTimestamp computes them).
 */
import type { Item } from '../gen/strata/catalog/v1/catalog.js';
import {
  delimitedFieldSize,
  isEncodableUint,
  varintSize,
  writeStringField,
  writeVarint,
} from './varint.js';

/** Per-item numbers measured in the sizing pass and reused by the writing pass. */
export interface ItemLayout {
  bodySize: number;
  title: number;
  categoryId: number;
  description: number;
  /** Milliseconds since the epoch, or NO_TIMESTAMP. */
  createMs: number;
  updateMs: number;
}

const UNSUPPORTED = -1;
const NO_TIMESTAMP = -2;

function stringSize(value: unknown): number {
  if (typeof value !== 'string') return UNSUPPORTED;
  return value === '' ? 0 : Buffer.byteLength(value, 'utf8');
}

const stringFieldSize = (byteLength: number) => (byteLength ? delimitedFieldSize(byteLength) : 0);
const uintFieldSize = (value: number) => (value !== 0 ? 1 + varintSize(value) : 0);
// ts-proto's toTimestamp: seconds = trunc(ms / 1000), nanos = (ms % 1000) * 1e6.
const secondsOf = (ms: number) => Math.trunc(ms / 1_000);
const nanosOf = (ms: number) => (ms % 1_000) * 1_000_000;
const timestampBodySize = (ms: number) => uintFieldSize(secondsOf(ms)) + uintFieldSize(nanosOf(ms));
const timestampFieldSize = (ms: number) =>
  ms === NO_TIMESTAMP ? 0 : delimitedFieldSize(timestampBodySize(ms));

/** A timestamp's milliseconds; NO_TIMESTAMP when unset, UNSUPPORTED before 1970 or invalid. */
function timestampMs(value: unknown): number {
  if (value === undefined) return NO_TIMESTAMP;
  const ms = value instanceof Date ? value.getTime() : NaN;
  return ms >= 0 ? ms : UNSUPPORTED;
}

/**
 * Fills `layout` and returns the Item body's size, or -1 for values ts-proto must encode
 * (negative or unsafe integers, dates before 1970, invalid dates, non-string strings).
 */
export function measureItem(item: Item, layout: ItemLayout): number {
  const { id, priceCents, version, createTime, updateTime } = item;
  if (!isEncodableUint(id) || !isEncodableUint(priceCents) || !isEncodableUint(version))
    return UNSUPPORTED;
  const title = stringSize(item.title);
  const categoryId = stringSize(item.categoryId);
  const description = stringSize(item.description);
  if (title < 0 || categoryId < 0 || description < 0) return UNSUPPORTED;
  const createMs = timestampMs(createTime);
  const updateMs = timestampMs(updateTime);
  if (createMs === UNSUPPORTED || updateMs === UNSUPPORTED) return UNSUPPORTED;
  const size =
    uintFieldSize(id) +
    stringFieldSize(title) +
    uintFieldSize(priceCents) +
    stringFieldSize(categoryId) +
    stringFieldSize(description) +
    timestampFieldSize(createMs) +
    timestampFieldSize(updateMs) +
    uintFieldSize(version);
  layout.createMs = createMs;
  layout.updateMs = updateMs;
  layout.title = title;
  layout.categoryId = categoryId;
  layout.description = description;
  layout.bodySize = size;
  return size;
}

function writeUintField(buf: Buffer, pos: number, tag: number, value: number): number {
  if (value === 0) return pos;
  buf[pos++] = tag;
  return writeVarint(buf, pos, value);
}

function writeTimestampField(buf: Buffer, pos: number, tag: number, ms: number): number {
  if (ms === NO_TIMESTAMP) return pos;
  buf[pos++] = tag;
  pos = writeVarint(buf, pos, timestampBodySize(ms));
  pos = writeUintField(buf, pos, 8, secondsOf(ms));
  return writeUintField(buf, pos, 16, nanosOf(ms));
}

/** Writes the Item body measured into `layout` at `pos`; returns the position after it. */
export function writeItem(buf: Buffer, pos: number, item: Item, layout: ItemLayout): number {
  pos = writeUintField(buf, pos, 8, item.id);
  if (layout.title) pos = writeStringField(buf, pos, 18, item.title, layout.title);
  pos = writeUintField(buf, pos, 24, item.priceCents);
  if (layout.categoryId) pos = writeStringField(buf, pos, 34, item.categoryId, layout.categoryId);
  if (layout.description)
    pos = writeStringField(buf, pos, 42, item.description, layout.description);
  pos = writeTimestampField(buf, pos, 50, layout.createMs);
  pos = writeTimestampField(buf, pos, 58, layout.updateMs);
  return writeUintField(buf, pos, 64, item.version);
}

/** A fresh layout record (one per item of a response). */
export function newItemLayout(): ItemLayout {
  return {
    bodySize: 0,
    title: 0,
    categoryId: 0,
    description: 0,
    createMs: NO_TIMESTAMP,
    updateMs: NO_TIMESTAMP,
  };
}
