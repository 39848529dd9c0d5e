/**
 * The durable spool: every accepted envelope is appended (group commit, fsync) before the client
 * is answered, kept FIFO per DSN key, and marked done with a tombstone once delivered or dropped.
 * Segments are deleted oldest-first once nothing in them is pending, so tombstones never outlive
 * what they cancel. On start, segments are scanned (CRC-checked, corrupted records skipped, torn
 * tails cut) and every envelope without a tombstone is queued again: SIGKILL loses nothing
 * acknowledged (delivery is at-least-once). Bounded in bytes overall and per DSN key (a share of
 * the bound); a failed write gives its reserved bytes back. Bodies beyond a memory budget are
 * re-read from disk and checked against their CRC.
 */
import { join } from 'node:path';
import { createGroupCommitWriter } from './group-commit-writer.js';
import { deleteSegmentFiles, nodeSpoolFs, segmentFileName, type SpoolFs } from './spool-fs.js';
import { PendingQueues } from './spool-queue.js';
import { recoverSegments } from './spool-recovery.js';
import { MemoryBudget, ProjectShares } from './spool-budgets.js';
import { SegmentLedger } from './segment-ledger.js';
import {
  TOMBSTONE_RECORD_BYTES,
  bodyOfRecord,
  encodeEnvelopeRecord,
  encodeTombstone,
  envelopeRecordLength,
} from './spool-record.js';

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
  /** Fraction of `maxBytes` one DSN key's pending envelopes may hold. */
  readonly projectShare: number;
  readonly segmentBytes: number;
  readonly memoryBytes: number;
  readonly fsync: boolean;
  /** File operations (tests inject faults here). */
  readonly fs?: SpoolFs;
}

/** Spool statistics for metrics and readiness. */
export interface SpoolStats {
  readonly bytes: number;
  readonly maxBytes: number;
  readonly pending: number;
  readonly queued: number;
  readonly oldestReceivedAt: number | undefined;
}

/** What `open()` found. */
export interface RecoveryReport {
  readonly recovered: number;
  /** Corrupted regions skipped between valid records, and their bytes. */
  readonly skippedRegions: number;
  readonly skippedBytes: number;
  /** Bytes of torn tails cut off. */
  readonly cutBytes: number;
}

/** Why an append was refused. */
export type SpoolRefusal = 'full' | 'over-share';

/** The spooled bytes of an envelope no longer match what was written (a disk fault). */
export class SpoolRecordCorruptError extends Error {
  constructor(entry: SpoolEntry) {
    super(`spooled record at ${segmentFileName(entry.segment)}:${entry.offset} is corrupt`);
    this.name = 'SpoolRecordCorruptError';
  }
}

/** The spool's interface. */
export interface Spool {
  open(): Promise<RecoveryReport>;
  append(dsnKey: string, body: Uint8Array, receivedAt: number): Promise<SpoolEntry | SpoolRefusal>;
  /** The oldest waiting envelope of a DSN key that `accept` allows (default: any). */
  shift(accept?: (dsnKey: string) => boolean): SpoolEntry | undefined;
  unshift(entry: SpoolEntry): void;
  /** The body; rejects on a read error or with `SpoolRecordCorruptError`. */
  readBody(entry: SpoolEntry): Promise<Uint8Array>;
  complete(entry: SpoolEntry): void;
  stats(): SpoolStats;
  onAppend(listener: () => void): void;
  close(): Promise<void>;
}

const recordLengthOf = (entry: SpoolEntry): number =>
  entry.bodyOffset - entry.offset + entry.size + 4;

/** Creates a spool over `options.dir` (call `open()` before use). */
export function createSpool(options: SpoolOptions): Spool {
  const fs = options.fs ?? nodeSpoolFs;
  const writer = createGroupCommitWriter({
    dir: options.dir,
    fsync: options.fsync,
    fs,
    // Synchronous, before any later reservation: the ledger's sizes follow the files.
    onRollback: (segment, length, closed) => ledger.rollBack(segment, length, closed),
  });
  const ledger = new SegmentLedger(
    options.segmentBytes,
    (segment, header) => void writer.append(segment, header, false),
  );
  const queues = new PendingQueues<SpoolEntry>();
  const inFlight = new Set<SpoolEntry>();
  const shares = new ProjectShares(Math.floor(options.maxBytes * options.projectShare));
  const memory = new MemoryBudget(options.memoryBytes);
  const listeners: Array<() => void> = [];

  /** A record becomes pending: its segment is kept, its bytes count against its key's share. */
  function hold(dsnKey: string, segment: number, length: number): void {
    ledger.addPending(segment, 1);
    shares.hold(dsnKey, length);
  }

  function release(dsnKey: string, segment: number, length: number): void {
    ledger.addPending(segment, -1);
    shares.release(dsnKey, length);
  }

  function forgetBody(entry: SpoolEntry): void {
    if (!entry.body) return;
    memory.giveBack(entry.body.length);
    entry.body = undefined;
  }

  /** Not awaited: a lost tombstone only means a duplicate delivery after a crash. */
  function writeTombstone(entry: SpoolEntry): void {
    const { segment, marker } = ledger.reserve(TOMBSTONE_RECORD_BYTES);
    writer
      .append(segment, encodeTombstone(marker, entry.segment, entry.offset), false)
      .catch(() => undefined);
  }

  function deleteDrainedSegments(): Promise<void> {
    return deleteSegmentFiles(options.dir, ledger.takeDrained(), options.fsync);
  }

  async function open(): Promise<RecoveryReport> {
    const recovery = await recoverSegments(options.dir);
    for (const { segment, length, marker } of recovery.segments) {
      ledger.restore(segment, length, marker);
    }
    for (const found of recovery.pending) {
      const entry: SpoolEntry = { ...found, body: undefined, attempts: 0 };
      hold(entry.dsnKey, entry.segment, recordLengthOf(entry));
      queues.push(entry);
    }
    ledger.recovered();
    await deleteDrainedSegments();
    const { skippedRegions, skippedBytes, cutBytes } = recovery;
    return { recovered: queues.size, skippedRegions, skippedBytes, cutBytes };
  }

  async function append(
    dsnKey: string,
    body: Uint8Array,
    receivedAt: number,
  ): Promise<SpoolEntry | SpoolRefusal> {
    const length = envelopeRecordLength(dsnKey, body.length);
    if (ledger.totalBytes + length > options.maxBytes) return 'full';
    if (shares.wouldExceed(dsnKey, length)) return 'over-share';
    const { segment, offset, marker } = ledger.reserve(length);
    const record = encodeEnvelopeRecord(marker, dsnKey, receivedAt, body);
    const entry: SpoolEntry = {
      dsnKey,
      receivedAt,
      size: body.length,
      segment,
      offset,
      bodyOffset: offset + length - 4 - body.length,
      body: memory.tryTake(body.length) ? body : undefined,
      attempts: 0,
    };
    hold(dsnKey, segment, length);
    try {
      await writer.append(segment, record);
    } catch (error) {
      // The writer has already given the segment's bytes back (onRollback).
      release(dsnKey, segment, length);
      forgetBody(entry);
      throw error;
    }
    queues.push(entry);
    for (const listener of listeners) listener();
    return entry;
  }

  function complete(entry: SpoolEntry): void {
    inFlight.delete(entry);
    forgetBody(entry);
    writeTombstone(entry);
    release(entry.dsnKey, entry.segment, recordLengthOf(entry));
    if (ledger.pendingIn(entry.segment) === 0) void deleteDrainedSegments();
  }

  async function readBody(entry: SpoolEntry): Promise<Uint8Array> {
    if (entry.body) return entry.body;
    const marker = ledger.markerOf(entry.segment);
    const path = join(options.dir, segmentFileName(entry.segment));
    const bytes = await fs.read(path, entry.offset, recordLengthOf(entry));
    const body = bodyOfRecord(bytes, marker);
    if (!body) throw new SpoolRecordCorruptError(entry);
    return body;
  }

  function stats(): SpoolStats {
    let oldest = queues.oldestReceivedAt();
    for (const entry of inFlight)
      if (oldest === undefined || entry.receivedAt < oldest) oldest = entry.receivedAt;
    return {
      bytes: ledger.totalBytes,
      maxBytes: options.maxBytes,
      pending: queues.size + inFlight.size,
      queued: queues.size,
      oldestReceivedAt: oldest,
    };
  }

  return {
    open,
    append,
    shift(accept) {
      const entry = queues.shift(accept);
      if (entry) inFlight.add(entry);
      return entry;
    },
    unshift(entry) {
      inFlight.delete(entry);
      queues.unshift(entry);
    },
    readBody,
    complete,
    stats,
    onAppend(listener) {
      listeners.push(listener);
    },
    close: () => writer.close(),
  };
}
