/**
 * Binary layout of spool records, with a CRC so a torn tail after a crash is detected:
 *   envelope:  "SR" 0x01 receivedAt:f64 keyLen:u16 bodyLen:u32 key body crc32:u32
 *   tombstone: "SR" 0x02 segment:u32 offset:u32 crc32:u32   (marks an envelope as done)
 */
import { crc32 } from 'node:zlib';

const MAGIC_0 = 0x53;
const MAGIC_1 = 0x52;
const ENVELOPE = 1;
const TOMBSTONE = 2;
/** Bytes before the key in an envelope record. */
export const ENVELOPE_PREFIX = 3 + 8 + 2 + 4;
const TOMBSTONE_BYTES = 3 + 4 + 4 + 4;

/** A decoded record with its byte span in the segment. */
export type DecodedRecord =
  | {
      readonly kind: 'envelope';
      readonly offset: number;
      readonly length: number;
      readonly receivedAt: number;
      readonly dsnKey: string;
      readonly bodyOffset: number;
      readonly bodyLength: number;
    }
  | {
      readonly kind: 'tombstone';
      readonly offset: number;
      readonly length: number;
      readonly segment: number;
      readonly target: number;
    };

/** Encodes an envelope record. */
export function encodeEnvelopeRecord(dsnKey: string, receivedAt: number, body: Uint8Array): Buffer {
  const key = Buffer.from(dsnKey, 'utf8');
  const out = Buffer.allocUnsafe(ENVELOPE_PREFIX + key.length + body.length + 4);
  out[0] = MAGIC_0;
  out[1] = MAGIC_1;
  out[2] = ENVELOPE;
  out.writeDoubleLE(receivedAt, 3);
  out.writeUInt16LE(key.length, 11);
  out.writeUInt32LE(body.length, 13);
  key.copy(out, ENVELOPE_PREFIX);
  out.set(body, ENVELOPE_PREFIX + key.length);
  const end = out.length - 4;
  out.writeUInt32LE(crc32(out.subarray(0, end)), end);
  return out;
}

/** Encodes a tombstone for the envelope record at (segment, offset). */
export function encodeTombstone(segment: number, offset: number): Buffer {
  const out = Buffer.allocUnsafe(TOMBSTONE_BYTES);
  out[0] = MAGIC_0;
  out[1] = MAGIC_1;
  out[2] = TOMBSTONE;
  out.writeUInt32LE(segment, 3);
  out.writeUInt32LE(offset, 7);
  out.writeUInt32LE(crc32(out.subarray(0, 11)), 11);
  return out;
}

/** Decodes records until the end or the first invalid one; returns them and the valid length. */
export function decodeSegment(data: Buffer): { records: DecodedRecord[]; validLength: number } {
  const records: DecodedRecord[] = [];
  let pos = 0;
  while (pos + 3 <= data.length && data[pos] === MAGIC_0 && data[pos + 1] === MAGIC_1) {
    const type = data[pos + 2];
    if (type === TOMBSTONE) {
      if (pos + TOMBSTONE_BYTES > data.length) break;
      if (crc32(data.subarray(pos, pos + 11)) !== data.readUInt32LE(pos + 11)) break;
      records.push({
        kind: 'tombstone',
        offset: pos,
        length: TOMBSTONE_BYTES,
        segment: data.readUInt32LE(pos + 3),
        target: data.readUInt32LE(pos + 7),
      });
      pos += TOMBSTONE_BYTES;
      continue;
    }
    if (type !== ENVELOPE || pos + ENVELOPE_PREFIX > data.length) break;
    const keyLength = data.readUInt16LE(pos + 11);
    const bodyLength = data.readUInt32LE(pos + 13);
    const length = ENVELOPE_PREFIX + keyLength + bodyLength + 4;
    if (pos + length > data.length) break;
    if (crc32(data.subarray(pos, pos + length - 4)) !== data.readUInt32LE(pos + length - 4)) break;
    records.push({
      kind: 'envelope',
      offset: pos,
      length,
      receivedAt: data.readDoubleLE(pos + 3),
      dsnKey: data.toString('utf8', pos + ENVELOPE_PREFIX, pos + ENVELOPE_PREFIX + keyLength),
      bodyOffset: pos + ENVELOPE_PREFIX + keyLength,
      bodyLength,
    });
    pos += length;
  }
  return { records, validLength: pos };
}
