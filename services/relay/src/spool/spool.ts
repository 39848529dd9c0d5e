/**
 * The durable spool: every accepted envelope is appended (group commit, fsync) before the client
 * is answered, kept FIFO, and marked done with a tombstone once delivered or dropped. Segments
 * are deleted oldest-first once nothing in them is pending, so tombstones never outlive what
 * they cancel. On start, segments are scanned (CRC-checked, torn tails cut) and every envelope
 * without a tombstone is queued again: SIGKILL loses nothing acknowledged (delivery is
 * at-least-once). Bounded in bytes; bodies beyond a memory budget are re-read from disk.
 */
import { mkdir, open, readdir, readFile, truncate, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { createGroupCommitWriter, segmentFileName, syncDirectory } from './group-commit-writer.js';
import { decodeSegment, encodeEnvelopeRecord, encodeTombstone } from './spool-record.js';

/** One spooled envelope. */
export interface SpoolEntry {
  readonly dsnKey: string;
  readonly receivedAt: number;
  readonly size: number;
  readonly segment: number;
  readonly offset: number;
  readonly bodyOffset: number;
  body: Uint8Array | undefined;
  attempts: number;
}

/** Spool options. */
export interface SpoolOptions {
  readonly dir: string;
  readonly maxBytes: number;
  readonly segmentBytes: number;
  readonly memoryBytes: number;
  readonly fsync: boolean;
}

/** Spool statistics for metrics and readiness. */
export interface SpoolStats {
  readonly bytes: number;
  readonly maxBytes: number;
  readonly pending: number;
  readonly queued: number;
  readonly oldestReceivedAt: number | undefined;
}

/** The spool's interface. */
export interface Spool {
  open(): Promise<number>;
  append(dsnKey: string, body: Uint8Array, receivedAt: number): Promise<SpoolEntry | 'full'>;
  shift(): SpoolEntry | undefined;
  unshift(entry: SpoolEntry): void;
  readBody(entry: SpoolEntry): Promise<Uint8Array>;
  complete(entry: SpoolEntry): void;
  stats(): SpoolStats;
  onAppend(listener: () => void): void;
  close(): Promise<void>;
}

/** Creates a spool over `options.dir` (call `open()` before use). */
export function createSpool(options: SpoolOptions): Spool {
  const writer = createGroupCommitWriter(options.dir, options.fsync);
  const queue: SpoolEntry[] = [];
  let head = 0;
  const inFlight = new Set<SpoolEntry>();
  const segmentBytes = new Map<number, number>();
  const segmentPending = new Map<number, number>();
  let activeSegment = 0;
  let totalBytes = 0;
  let memoryBytes = 0;
  const listeners: Array<() => void> = [];

  function reserve(length: number): { segment: number; offset: number } {
    let size = segmentBytes.get(activeSegment) ?? 0;
    if (size >= options.segmentBytes) {
      activeSegment += 1;
      size = 0;
    }
    segmentBytes.set(activeSegment, size + length);
    totalBytes += length;
    return { segment: activeSegment, offset: size };
  }

  function track(entry: SpoolEntry): void {
    segmentPending.set(entry.segment, (segmentPending.get(entry.segment) ?? 0) + 1);
    queue.push(entry);
  }

  async function deleteDrainedSegments(): Promise<void> {
    const ordered = [...segmentBytes.keys()].sort((a, b) => a - b);
    let removed = false;
    for (const segment of ordered) {
      if (segment >= activeSegment || (segmentPending.get(segment) ?? 0) > 0) break;
      totalBytes -= segmentBytes.get(segment) ?? 0;
      segmentBytes.delete(segment);
      segmentPending.delete(segment);
      await unlink(join(options.dir, segmentFileName(segment))).catch(() => undefined);
      removed = true;
    }
    if (removed && options.fsync) await syncDirectory(options.dir).catch(() => undefined);
  }

  return {
    async open() {
      await mkdir(options.dir, { recursive: true });
      const names = (await readdir(options.dir))
        .filter((n) => /^segment-\d{10}\.log$/.test(n))
        .sort();
      const found: SpoolEntry[] = [];
      const done = new Set<string>();
      for (const name of names) {
        const segment = Number(name.slice(8, 18));
        const path = join(options.dir, name);
        const data = await readFile(path);
        const { records, validLength } = decodeSegment(data);
        if (validLength < data.length) await truncate(path, validLength);
        segmentBytes.set(segment, validLength);
        totalBytes += validLength;
        activeSegment = Math.max(activeSegment, segment);
        for (const record of records) {
          if (record.kind === 'tombstone') done.add(`${record.segment}:${record.target}`);
          else {
            found.push({
              dsnKey: record.dsnKey,
              receivedAt: record.receivedAt,
              size: record.bodyLength,
              segment,
              offset: record.offset,
              bodyOffset: record.bodyOffset,
              body: undefined,
              attempts: 0,
            });
          }
        }
      }
      for (const entry of found) if (!done.has(`${entry.segment}:${entry.offset}`)) track(entry);
      // Recovered segments are closed for appends: start a fresh one.
      if (names.length > 0) activeSegment += 1;
      await deleteDrainedSegments();
      return queue.length - head;
    },

    async append(dsnKey, body, receivedAt) {
      const record = encodeEnvelopeRecord(dsnKey, receivedAt, body);
      if (totalBytes + record.length > options.maxBytes) return 'full';
      const { segment, offset } = reserve(record.length);
      const keepInMemory = memoryBytes + body.length <= options.memoryBytes;
      const entry: SpoolEntry = {
        dsnKey,
        receivedAt,
        size: body.length,
        segment,
        offset,
        bodyOffset: offset + record.length - 4 - body.length,
        body: keepInMemory ? body : undefined,
        attempts: 0,
      };
      if (keepInMemory) memoryBytes += body.length;
      segmentPending.set(segment, (segmentPending.get(segment) ?? 0) + 1);
      try {
        await writer.append(segment, record);
      } catch (error) {
        segmentPending.set(segment, (segmentPending.get(segment) ?? 1) - 1);
        if (keepInMemory) memoryBytes -= body.length;
        throw error;
      }
      queue.push(entry);
      for (const listener of listeners) listener();
      return entry;
    },

    shift() {
      if (head >= queue.length) return undefined;
      const entry = queue[head]!;
      queue[head] = undefined as unknown as SpoolEntry;
      head += 1;
      if (head > 1024 && head * 2 > queue.length) {
        queue.splice(0, head);
        head = 0;
      }
      inFlight.add(entry);
      return entry;
    },

    unshift(entry) {
      inFlight.delete(entry);
      if (head > 0) {
        head -= 1;
        queue[head] = entry;
      } else queue.unshift(entry);
    },

    async readBody(entry) {
      if (entry.body) return entry.body;
      const handle = await open(join(options.dir, segmentFileName(entry.segment)), 'r');
      try {
        const buffer = Buffer.allocUnsafe(entry.size);
        await handle.read(buffer, 0, entry.size, entry.bodyOffset);
        return buffer;
      } finally {
        await handle.close();
      }
    },

    complete(entry) {
      inFlight.delete(entry);
      if (entry.body) {
        memoryBytes -= entry.body.length;
        entry.body = undefined;
      }
      const tombstone = encodeTombstone(entry.segment, entry.offset);
      const { segment } = reserve(tombstone.length);
      // Not awaited: a lost tombstone only means a duplicate delivery after a crash.
      writer.append(segment, tombstone, false).catch(() => undefined);
      segmentPending.set(entry.segment, (segmentPending.get(entry.segment) ?? 1) - 1);
      if (segmentPending.get(entry.segment) === 0) void deleteDrainedSegments();
    },

    stats() {
      let oldest: number | undefined = queue[head]?.receivedAt;
      for (const entry of inFlight)
        if (oldest === undefined || entry.receivedAt < oldest) oldest = entry.receivedAt;
      return {
        bytes: totalBytes,
        maxBytes: options.maxBytes,
        pending: queue.length - head + inFlight.size,
        queued: queue.length - head,
        oldestReceivedAt: oldest,
      };
    },

    onAppend(listener) {
      listeners.push(listener);
    },

    close: () => writer.close(),
  };
}
