/**
 * Unsigned varint and string primitives for the generated one-pass encoders, on plain JS
 * numbers. Callers only pass non-negative safe integers (anything else falls back to ts-proto).
 */

/** Bytes a non-negative safe integer takes as a varint. */
export function varintSize(value: number): number {
  let size = 1;
  while (value >= 128) {
    value = Math.floor(value / 128);
    size++;
  }
  return size;
}

/** Writes `value` as a varint at `pos`; returns the position after it. */
export function writeVarint(buf: Buffer, pos: number, value: number): number {
  while (value >= 128) {
    buf[pos++] = (value % 128) | 128;
    value = Math.floor(value / 128);
  }
  buf[pos++] = value;
  return pos;
}

/** True for values the encoders write themselves (negatives take ts-proto's 10-byte path). */
export function isEncodableUint(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

const INT32_MAX = 0x7fffffff;

/**
 * True for int32 and enum values the encoders write themselves: negatives take ts-proto's
 * sign-extended 10-byte path, and ts-proto rejects non-integers and values beyond int32.
 */
export function isEncodableInt32(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= INT32_MAX;
}

/** Size of a length-delimited value (its length and body; the tag is counted apart). */
export function delimitedSize(bodySize: number): number {
  return varintSize(bodySize) + bodySize;
}

/** A string's UTF-8 size; -1 for a value that is not a string (ts-proto decides). */
export function stringSize(value: unknown): number {
  if (typeof value !== 'string') return -1;
  return value === '' ? 0 : Buffer.byteLength(value, 'utf8');
}

/** UTF-8 sizes of a repeated string field's values; undefined if one is not a string. */
export function measureStrings(values: unknown): number[] | undefined {
  if (!Array.isArray(values)) return undefined;
  const sizes: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const value: unknown = values[i];
    if (typeof value !== 'string') return undefined;
    sizes.push(Buffer.byteLength(value, 'utf8'));
  }
  return sizes;
}

/** Writes a length and a UTF-8 string of `byteLength` bytes (the tag is already written). */
export function writeString(buf: Buffer, pos: number, value: string, byteLength: number): number {
  pos = writeVarint(buf, pos, byteLength);
  return pos + buf.write(value, pos, byteLength, 'utf8');
}

/** The buffer, once the writing pass has filled exactly what the sizing pass measured. */
export function checkedSize(buf: Buffer, end: number): Buffer {
  // A mismatch would mean a sizing bug: fail loudly rather than send a corrupt message.
  if (end !== buf.length) throw new Error(`fast encoder wrote ${end} of ${buf.length} bytes`);
  return buf;
}
