/**
 * Sizing and writing of strata.catalog.v1.Item in one pass over a preallocated Buffer, with the
 * exact bytes ts-proto's Item.encode produces (fields in number order, proto3 defaults skipped,
 * timestamps as ts-proto's toTimestamp computes them).
 */
import type { Item } from '@strata/proto';
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
  createSeconds: number;
  createNanos: number;
  updateSeconds: number;
  updateNanos: number;
}

const UNSUPPORTED = -1;

function stringSize(value: unknown): number {
  if (typeof value !== 'string') return UNSUPPORTED;
  return value === '' ? 0 : Buffer.byteLength(value, 'utf8');
}

const stringFieldSize = (byteLength: number) => (byteLength ? delimitedFieldSize(byteLength) : 0);
const uintFieldSize = (value: number) => (value !== 0 ? 1 + varintSize(value) : 0);
const timestampBodySize = (seconds: number, nanos: number) =>
  uintFieldSize(seconds) + uintFieldSize(nanos);

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
  let size =
    uintFieldSize(id) +
    stringFieldSize(title) +
    uintFieldSize(priceCents) +
    stringFieldSize(categoryId) +
    stringFieldSize(description) +
    uintFieldSize(version);
  // ts-proto: seconds = trunc(ms / 1000), nanos = (ms % 1000) * 1e6; negative for pre-1970.
  layout.createSeconds = layout.createNanos = layout.updateSeconds = layout.updateNanos = 0;
  if (createTime !== undefined) {
    const ms = createTime instanceof Date ? createTime.getTime() : NaN;
    if (!(ms >= 0)) return UNSUPPORTED;
    layout.createSeconds = Math.trunc(ms / 1_000);
    layout.createNanos = (ms % 1_000) * 1_000_000;
    size += delimitedFieldSize(timestampBodySize(layout.createSeconds, layout.createNanos));
  }
  if (updateTime !== undefined) {
    const ms = updateTime instanceof Date ? updateTime.getTime() : NaN;
    if (!(ms >= 0)) return UNSUPPORTED;
    layout.updateSeconds = Math.trunc(ms / 1_000);
    layout.updateNanos = (ms % 1_000) * 1_000_000;
    size += delimitedFieldSize(timestampBodySize(layout.updateSeconds, layout.updateNanos));
  }
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

function writeTimestampField(
  buf: Buffer,
  pos: number,
  tag: number,
  seconds: number,
  nanos: number,
): number {
  buf[pos++] = tag;
  pos = writeVarint(buf, pos, timestampBodySize(seconds, nanos));
  pos = writeUintField(buf, pos, 8, seconds);
  return writeUintField(buf, pos, 16, nanos);
}

/** Writes the Item body measured into `layout` at `pos`; returns the position after it. */
export function writeItem(buf: Buffer, pos: number, item: Item, layout: ItemLayout): number {
  pos = writeUintField(buf, pos, 8, item.id);
  if (layout.title) pos = writeStringField(buf, pos, 18, item.title, layout.title);
  pos = writeUintField(buf, pos, 24, item.priceCents);
  if (layout.categoryId) pos = writeStringField(buf, pos, 34, item.categoryId, layout.categoryId);
  if (layout.description)
    pos = writeStringField(buf, pos, 42, item.description, layout.description);
  if (item.createTime !== undefined)
    pos = writeTimestampField(buf, pos, 50, layout.createSeconds, layout.createNanos);
  if (item.updateTime !== undefined)
    pos = writeTimestampField(buf, pos, 58, layout.updateSeconds, layout.updateNanos);
  return writeUintField(buf, pos, 64, item.version);
}

/** A fresh layout record (one per item of a response). */
export function newItemLayout(): ItemLayout {
  return {
    bodySize: 0,
    title: 0,
    categoryId: 0,
    description: 0,
    createSeconds: 0,
    createNanos: 0,
    updateSeconds: 0,
    updateNanos: 0,
  };
}
