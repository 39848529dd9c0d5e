/**
 * Binary layout of spool records. A record is CRC-protected so a torn or corrupted one is
 * detected:
 *   envelope:  "SR" 0x01 receivedAt:f64 keyLen:u16 bodyLen:u32 key body crc32:u32
 *   tombstone: "SR" 0x02 segment:u32 offset:u32 crc32:u32   (marks an envelope as done)
 * Segments written since format 2 open with a header, "SR" 0x00 0x02 marker:16, and every record
 * is preceded by that segment's random 16-byte sync marker (as in Avro container files). After a
 * bad record the decoder resumes at the next marker, so one corrupted record loses only itself.
 * The marker is random per segment and never leaves the spool, so an envelope body cannot forge a
 * record boundary. Segments without the header (format 1) decode as before: up to the first bad
 * record.
 */
import { crc32 } from 'node:zlib';

const MAGIC_0 = 0x53;
const MAGIC_1 = 0x52;
const HEADER = 0;
const ENVELOPE = 1;
const TOMBSTONE = 2;
const FORMAT_2 = 2;
/** Length of a segment's sync marker. */
export const MARKER_BYTES = 16;
/** Length of the format-2 segment header. */
export const SEGMENT_HEADER_BYTES = 4 + MARKER_BYTES;
/** Bytes before the key in an envelope record (after the marker). */
export const ENVELOPE_PREFIX = 3 + 8 + 2 + 4;
const TOMBSTONE_BYTES = 3 + 4 + 4 + 4;

/** A decoded record with its byte span in the segment (marker included). */
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

/** What decoding a segment found. */
export interface DecodedSegment {
  readonly records: DecodedRecord[];
  /** The segment's marker; null for a format-1 segment (or an empty or torn header). */
  readonly marker: Buffer | null;
  /** End of the last valid record (or header): anything after it is a torn tail. */
  readonly validLength: number;
  /** Corrupted regions between valid records that were skipped, and their bytes. */
  readonly skippedRegions: number;
  readonly skippedBytes: number;
}

/** Length of an encoded envelope record (marker included). */
export function envelopeRecordLength(dsnKey: string, bodyLength: number): number {
  return MARKER_BYTES + ENVELOPE_PREFIX + Buffer.byteLength(dsnKey, 'utf8') + bodyLength + 4;
}

/** Length of an encoded tombstone (marker included). */
export const TOMBSTONE_RECORD_BYTES = MARKER_BYTES + TOMBSTONE_BYTES;

/** Encodes the header that opens a format-2 segment. */
export function encodeSegmentHeader(marker: Buffer): Buffer {
  const out = Buffer.allocUnsafe(SEGMENT_HEADER_BYTES);
  out[0] = MAGIC_0;
  out[1] = MAGIC_1;
  out[2] = HEADER;
  out[3] = FORMAT_2;
  marker.copy(out, 4);
  return out;
}

/** Encodes an envelope record, preceded by the segment's marker. */
export function encodeEnvelopeRecord(
  marker: Buffer,
  dsnKey: string,
  receivedAt: number,
  body: Uint8Array,
): Buffer {
  const key = Buffer.from(dsnKey, 'utf8');
  const at = MARKER_BYTES;
  const out = Buffer.allocUnsafe(at + ENVELOPE_PREFIX + key.length + body.length + 4);
  marker.copy(out, 0);
  out[at] = MAGIC_0;
  out[at + 1] = MAGIC_1;
  out[at + 2] = ENVELOPE;
  out.writeDoubleLE(receivedAt, at + 3);
  out.writeUInt16LE(key.length, at + 11);
  out.writeUInt32LE(body.length, at + 13);
  key.copy(out, at + ENVELOPE_PREFIX);
  out.set(body, at + ENVELOPE_PREFIX + key.length);
  const end = out.length - 4;
  out.writeUInt32LE(crc32(out.subarray(at, end)), end);
  return out;
}

/** Encodes a tombstone for the envelope record at (segment, offset), preceded by the marker. */
export function encodeTombstone(marker: Buffer, segment: number, offset: number): Buffer {
  const at = MARKER_BYTES;
  const out = Buffer.allocUnsafe(at + TOMBSTONE_BYTES);
  marker.copy(out, 0);
  out[at] = MAGIC_0;
  out[at + 1] = MAGIC_1;
  out[at + 2] = TOMBSTONE;
  out.writeUInt32LE(segment, at + 3);
  out.writeUInt32LE(offset, at + 7);
  out.writeUInt32LE(crc32(out.subarray(at, at + 11)), at + 11);
  return out;
}

/** Decodes the record (without marker) at `pos` whose span starts at `start`; null if invalid. */
function recordAt(data: Buffer, pos: number, start: number): DecodedRecord | null {
  if (pos + 3 > data.length || data[pos] !== MAGIC_0 || data[pos + 1] !== MAGIC_1) return null;
  const type = data[pos + 2];
  if (type === TOMBSTONE) {
    if (pos + TOMBSTONE_BYTES > data.length) return null;
    if (crc32(data.subarray(pos, pos + 11)) !== data.readUInt32LE(pos + 11)) return null;
    return {
      kind: 'tombstone',
      offset: start,
      length: pos - start + TOMBSTONE_BYTES,
      segment: data.readUInt32LE(pos + 3),
      target: data.readUInt32LE(pos + 7),
    };
  }
  if (type !== ENVELOPE || pos + ENVELOPE_PREFIX > data.length) return null;
  const keyLength = data.readUInt16LE(pos + 11);
  const bodyLength = data.readUInt32LE(pos + 13);
  const length = ENVELOPE_PREFIX + keyLength + bodyLength + 4;
  if (pos + length > data.length) return null;
  if (crc32(data.subarray(pos, pos + length - 4)) !== data.readUInt32LE(pos + length - 4)) {
    return null;
  }
  return {
    kind: 'envelope',
    offset: start,
    length: pos - start + length,
    receivedAt: data.readDoubleLE(pos + 3),
    dsnKey: data.toString('utf8', pos + ENVELOPE_PREFIX, pos + ENVELOPE_PREFIX + keyLength),
    bodyOffset: pos + ENVELOPE_PREFIX + keyLength,
    bodyLength,
  };
}

function hasFormat2Header(data: Buffer): boolean {
  return (
    data.length >= SEGMENT_HEADER_BYTES &&
    data[0] === MAGIC_0 &&
    data[1] === MAGIC_1 &&
    data[2] === HEADER &&
    data[3] === FORMAT_2
  );
}

/** Decodes a segment file's records (format 1 or 2). */
export function decodeSegment(data: Buffer): DecodedSegment {
  if (!hasFormat2Header(data)) return decodeFormat1(data);
  const marker = Buffer.from(data.subarray(4, SEGMENT_HEADER_BYTES));
  const records: DecodedRecord[] = [];
  let pos = SEGMENT_HEADER_BYTES;
  let validLength = pos;
  let skippedRegions = 0;
  let skippedBytes = 0;
  while (pos < data.length) {
    const startsWithMarker =
      pos + MARKER_BYTES <= data.length &&
      data.compare(marker, 0, MARKER_BYTES, pos, pos + MARKER_BYTES) === 0;
    const record = startsWithMarker ? recordAt(data, pos + MARKER_BYTES, pos) : null;
    if (record) {
      records.push(record);
      pos += record.length;
      validLength = pos;
      continue;
    }
    const next = data.indexOf(marker, pos + 1);
    if (next === -1) break; // a torn tail: cut at validLength
    skippedRegions += 1;
    skippedBytes += next - pos;
    pos = next;
  }
  return { records, marker, validLength, skippedRegions, skippedBytes };
}

function decodeFormat1(data: Buffer): DecodedSegment {
  const records: DecodedRecord[] = [];
  let pos = 0;
  for (let record = recordAt(data, 0, 0); record; record = recordAt(data, pos, pos)) {
    records.push(record);
    pos += record.length;
  }
  return { records, marker: null, validLength: pos, skippedRegions: 0, skippedBytes: 0 };
}

/**
 * Extracts the body from the bytes of one envelope record read back from disk (marker first when
 * `marker` is given); null when the bytes are not that record (corrupted on disk).
 */
export function bodyOfRecord(bytes: Buffer, marker: Buffer | null): Buffer | null {
  const pos = marker ? MARKER_BYTES : 0;
  if (marker && (bytes.length < pos || !bytes.subarray(0, pos).equals(marker))) return null;
  const record = recordAt(bytes, pos, 0);
  if (record?.kind !== 'envelope' || record.length !== bytes.length) return null;
  return bytes.subarray(record.bodyOffset, record.bodyOffset + record.bodyLength);
}
