/**
 * Reads every segment file of a spool directory at start: decodes its records (skipping
 * corrupted regions between valid ones), cuts a torn tail off the file, lists the envelopes no
 * tombstone marks as done (in spool order), and reports what it skipped. I/O adapter (node:fs);
 * the decoding is `decodeSegment`.
 */
import { mkdir, readdir, readFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { isSegmentFileName } from './spool-fs.js';
import { decodeSegment, type DecodedRecord } from './spool-record.js';

/** One segment as found on disk. */
export interface RecoveredSegment {
  readonly segment: number;
  /** Bytes of the file after its torn tail (if any) was cut. */
  readonly length: number;
  readonly marker: Buffer | null;
}

/** An envelope still to be delivered. */
export interface RecoveredEnvelope {
  readonly dsnKey: string;
  readonly receivedAt: number;
  readonly size: number;
  readonly segment: number;
  readonly offset: number;
  readonly bodyOffset: number;
}

/** Everything found, and what could not be read. */
export interface Recovery {
  readonly segments: readonly RecoveredSegment[];
  /** Envelopes without a tombstone, oldest first. */
  readonly pending: readonly RecoveredEnvelope[];
  readonly skippedRegions: number;
  readonly skippedBytes: number;
  /** Bytes of torn tails cut off. */
  readonly cutBytes: number;
}

/** Scans `dir` (created if missing) in segment order. */
export async function recoverSegments(dir: string): Promise<Recovery> {
  await mkdir(dir, { recursive: true });
  const names = (await readdir(dir)).filter(isSegmentFileName).sort();
  const segments: RecoveredSegment[] = [];
  const envelopes: RecoveredEnvelope[] = [];
  const done = new Set<string>();
  let skippedRegions = 0;
  let skippedBytes = 0;
  let cutBytes = 0;
  for (const name of names) {
    const path = join(dir, name);
    const data = await readFile(path);
    const decoded = decodeSegment(data);
    if (decoded.validLength < data.length) {
      await truncate(path, decoded.validLength);
      cutBytes += data.length - decoded.validLength;
    }
    skippedRegions += decoded.skippedRegions;
    skippedBytes += decoded.skippedBytes;
    const segment = Number(name.slice(8, 18));
    segments.push({ segment, length: decoded.validLength, marker: decoded.marker });
    for (const record of decoded.records) collect(segment, record);
  }
  const pending = envelopes.filter((entry) => !done.has(`${entry.segment}:${entry.offset}`));
  return { segments, pending, skippedRegions, skippedBytes, cutBytes };

  function collect(segment: number, record: DecodedRecord): void {
    if (record.kind === 'tombstone') done.add(`${record.segment}:${record.target}`);
    else {
      const { dsnKey, receivedAt, bodyLength: size, offset, bodyOffset } = record;
      envelopes.push({ dsnKey, receivedAt, size, segment, offset, bodyOffset });
    }
  }
}
