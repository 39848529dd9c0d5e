/**
 * Unsigned varint primitives for the one-pass response encoders, on plain JS numbers.
 * Callers only pass non-negative safe integers (anything else falls back to ts-proto).
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

/** Size of a length-delimited field (one-byte tag) whose body is `bodySize` bytes. */
export function delimitedFieldSize(bodySize: number): number {
  return 1 + varintSize(bodySize) + bodySize;
}

/** Writes a one-byte tag, a length and a UTF-8 string of `byteLength` bytes. */
export function writeStringField(
  buf: Buffer,
  pos: number,
  tag: number,
  value: string,
  byteLength: number,
): number {
  buf[pos++] = tag;
  pos = writeVarint(buf, pos, byteLength);
  return pos + buf.write(value, pos, byteLength, 'utf8');
}
