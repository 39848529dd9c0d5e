/**
 * google.protobuf.Timestamp as ts-proto's useDate shows it (a Date), read and written the way
 * ts-proto's fromTimestamp and toTimestamp compute it, for the generated fast codecs.
 */
import { unsupported, type ProtoReader } from './proto-reader.js';
import { varintSize, writeVarint } from './varint.js';

/** A timestamp field that is not set (nothing is written). */
export const NO_TIMESTAMP = -2;
/** A value the fast encoders leave to ts-proto (before 1970, invalid, not a Date). */
export const UNSUPPORTED_TIMESTAMP = -1;

/** google.protobuf.Timestamp → Date, as ts-proto's fromTimestamp computes it. */
export function readTimestamp(outer: ProtoReader): Date {
  const reader = outer.nested();
  let seconds = 0;
  let nanos = 0;
  while (reader.pos < reader.end) {
    const tag = reader.uint();
    if (tag === 8) seconds = reader.uint();
    else if (tag === 16) {
      nanos = reader.uint();
      if (nanos > 0x7fffffff) unsupported();
    } else unsupported();
  }
  return new Date(seconds * 1_000 + nanos / 1_000_000);
}

/** A timestamp's milliseconds; NO_TIMESTAMP when unset, UNSUPPORTED_TIMESTAMP when declined. */
export function timestampMs(value: unknown): number {
  if (value === undefined) return NO_TIMESTAMP;
  const ms = value instanceof Date ? value.getTime() : NaN;
  return ms >= 0 ? ms : UNSUPPORTED_TIMESTAMP;
}

// ts-proto's toTimestamp: seconds = trunc(ms / 1000), nanos = (ms % 1000) * 1e6.
const secondsOf = (ms: number) => Math.trunc(ms / 1_000);
const nanosOf = (ms: number) => (ms % 1_000) * 1_000_000;
const uintFieldSize = (value: number) => (value !== 0 ? 1 + varintSize(value) : 0);
const bodySize = (ms: number) => uintFieldSize(secondsOf(ms)) + uintFieldSize(nanosOf(ms));

/** Size of a set timestamp of `ms` milliseconds: its length and body (not the tag). */
export function timestampSize(ms: number): number {
  const body = bodySize(ms);
  return varintSize(body) + body;
}

function writeUint(buf: Buffer, pos: number, tag: number, value: number): number {
  if (value === 0) return pos;
  buf[pos++] = tag;
  return writeVarint(buf, pos, value);
}

/** Writes a set timestamp's length and body (the tag is already written). */
export function writeTimestamp(buf: Buffer, pos: number, ms: number): number {
  pos = writeVarint(buf, pos, bodySize(ms));
  pos = writeUint(buf, pos, 8, secondsOf(ms));
  return writeUint(buf, pos, 16, nanosOf(ms));
}
