/**
 * The spool's bookkeeping of its segment files: where the next record goes (segment and offset,
 * rotating at the size bound and opening each new segment with its header and random marker),
 * how many bytes each segment holds and how many of its envelopes are pending, and which
 * segments are drained. Follows a writer rollback so sizes always match the files. Pure.
 */
import { randomBytes } from 'node:crypto';
import { MARKER_BYTES, encodeSegmentHeader } from './spool-record.js';

interface Segment {
  bytes: number;
  pending: number;
  /** Null for a recovered format-1 segment (never appended to). */
  readonly marker: Buffer | null;
}

/** Where a reserved record goes. */
export interface Reservation {
  readonly segment: number;
  readonly offset: number;
  readonly marker: Buffer;
}

/** Segment sizes and pending counts; `writeHeader` appends a new segment's header record. */
export class SegmentLedger {
  private readonly segments = new Map<number, Segment>();
  private active = 0;
  private bytes = 0;

  constructor(
    private readonly segmentBytes: number,
    private readonly writeHeader: (segment: number, header: Buffer) => void,
  ) {}

  /** Bytes of every segment file. */
  get totalBytes(): number {
    return this.bytes;
  }

  /** Adds a segment found at start (closed for appends once `recovered()` is called). */
  restore(segment: number, length: number, marker: Buffer | null): void {
    this.segments.set(segment, { bytes: length, pending: 0, marker });
    this.bytes += length;
    this.active = Math.max(this.active, segment);
  }

  /** After recovery: new records go to a fresh segment. */
  recovered(): void {
    if (this.segments.size > 0) this.active += 1;
  }

  /** Reserves `length` bytes at the end of the active segment. */
  reserve(length: number): Reservation {
    let segment = this.segments.get(this.active);
    if (segment && (segment.bytes >= this.segmentBytes || !segment.marker)) {
      this.active += 1;
      segment = undefined;
    }
    if (!segment) {
      segment = { bytes: 0, pending: 0, marker: randomBytes(MARKER_BYTES) };
      this.segments.set(this.active, segment);
    }
    const marker = segment.marker!;
    if (segment.bytes === 0) {
      const header = encodeSegmentHeader(marker);
      segment.bytes = header.length;
      this.bytes += header.length;
      this.writeHeader(this.active, header);
    }
    const offset = segment.bytes;
    segment.bytes += length;
    this.bytes += length;
    return { segment: this.active, offset, marker };
  }

  /** A failed write left `segment` at `length` bytes (giving the rest back); maybe closed. */
  rollBack(number: number, length: number, closed: boolean): void {
    const segment = this.segments.get(number);
    if (!segment) return;
    this.bytes += length - segment.bytes;
    segment.bytes = length;
    if (closed && number === this.active) this.active += 1;
  }

  /** Counts envelopes of `segment` that become pending (+1) or done (-1). */
  addPending(number: number, delta: number): void {
    const segment = this.segments.get(number);
    if (segment) segment.pending += delta;
  }

  pendingIn(number: number): number {
    return this.segments.get(number)?.pending ?? 0;
  }

  markerOf(number: number): Buffer | null {
    return this.segments.get(number)?.marker ?? null;
  }

  /** Forgets the oldest segments with nothing pending (never the active one); returns them. */
  takeDrained(): number[] {
    const drained: number[] = [];
    for (const number of [...this.segments.keys()].sort((a, b) => a - b)) {
      if (number >= this.active || this.pendingIn(number) > 0) break;
      this.bytes -= this.segments.get(number)!.bytes;
      this.segments.delete(number);
      drained.push(number);
    }
    return drained;
  }
}
