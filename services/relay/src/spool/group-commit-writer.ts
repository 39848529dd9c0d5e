/**
 * Appends records to numbered segment files with group commit. Records are collected in call
 * order and written together once per event-loop turn (one `writev` for all the envelopes the
 * turn accepted, instead of one `write` each: the per-record syscalls were a visible share of the
 * relay's CPU under load). One fdatasync at a time runs in the background, and each caller's
 * promise resolves once a sync that started after its record was written has finished: every
 * record is acknowledged after about one sync, and all records written meanwhile share the next
 * one. Records that need no durability (tombstones) ride along with the next write and never
 * trigger a sync themselves. A new segment file is made durable by fsyncing the directory, and
 * the previous segment is synced before it is closed.
 *
 * Failures never leave a torn record behind later ones. A failed write (disk full mid-`writev`,
 * EIO) rejects its batch and truncates the file back to where the batch began; if even that
 * fails, the segment is closed for appends. A failed sync rejects every record of the open
 * segment not yet acknowledged and closes the segment (after a failed fdatasync the kernel may
 * already have dropped the pages, so a later sync of the same file proves nothing). Either way
 * `onRollback` tells the spool, synchronously, how long the segment now is and whether it is
 * closed, before any other append can be reserved. I/O adapter (a `SpoolFs`).
 */
import { join } from 'node:path';
import { nodeSpoolFs, segmentFileName, syncDirectory, type SpoolFs } from './spool-fs.js';

/** Buffers per writev call (Linux IOV_MAX is 1024). */
const MAX_IOVECS = 1024;

interface Waiter {
  readonly seq: number;
  readonly segment: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** Called after a failure: `segment` now holds `length` bytes; `closed`: append no more to it. */
export type RollbackListener = (segment: number, length: number, closed: boolean) => void;

/** The writer's interface. */
export interface GroupCommitWriter {
  /**
   * Appends `data` to `segment` (segments only grow; order is the call order). Resolves when the
   * record is durable, or, with fsync off, once it is written. With `durable` false it resolves
   * at once and is written with the next batch.
   */
  append(segment: number, data: Buffer, durable?: boolean): Promise<void>;
  /** Writes what is pending, waits for syncs, then syncs and closes the open segment. */
  close(): Promise<void>;
}

/** Writer options; `fsync: false` skips durability (throughput comparisons only). */
export interface WriterOptions {
  readonly dir: string;
  readonly fsync: boolean;
  readonly onRollback?: RollbackListener;
  readonly fs?: SpoolFs;
}

const resolved = Promise.resolve();

/** A write that failed part-way; `cause` is the file system's error. */
class WriteFailure extends Error {
  constructor(
    cause: unknown,
    readonly written: number,
  ) {
    super('spool write failed', { cause });
  }
}

/** Creates a writer for `options.dir`. */
export function createGroupCommitWriter(options: WriterOptions): GroupCommitWriter {
  const { dir, fsync } = options;
  const fs = options.fs ?? nodeSpoolFs;
  const onRollback = options.onRollback ?? (() => undefined);
  let fd = -1;
  let fdSegment = -1;
  /** Bytes in the open segment file. */
  let fdLength = 0;
  /** Sequence number of the last appended record, and of the last one written to its file. */
  let appended = 0;
  let written = 0;
  let batch: Buffer[] = [];
  let batchSegment = -1;
  let flushScheduled = false;
  let syncing: Promise<void> | null = null;
  let directoryDirty = false;
  const retiring: number[] = [];
  let waiters: Waiter[] = [];
  let closed = false;

  /** Writes every buffer; returns the bytes written, or throws with `written` on the error. */
  function writeAll(buffers: Buffer[]): number {
    let done = 0;
    try {
      for (let start = 0; start < buffers.length; start += MAX_IOVECS) {
        const chunk = buffers.slice(start, start + MAX_IOVECS);
        let total = 0;
        for (const buffer of chunk) total += buffer.length;
        const wrote = fs.writev(fd, chunk);
        done += wrote;
        if (wrote < total) {
          // A short write (a nearly full disk): finish the rest with plain writes.
          const rest = Buffer.concat(chunk).subarray(wrote);
          let offset = 0;
          while (offset < rest.length) {
            const more = fs.write(fd, rest, offset, rest.length - offset);
            offset += more;
            done += more;
          }
        }
      }
    } catch (error) {
      throw new WriteFailure(error, done);
    }
    return done;
  }

  function rejectWhere(match: (waiter: Waiter) => boolean, error: unknown): void {
    const failed = waiters.filter(match);
    if (failed.length === 0) return;
    waiters = waiters.filter((waiter) => !match(waiter));
    for (const waiter of failed) waiter.reject(error);
  }

  function closeQuietly(handle: number): void {
    try {
      fs.close(handle);
    } catch {
      // Nothing more can be done for a descriptor that will not close.
    }
  }

  /** Stops appending to the open segment; what was written to it still gets synced. */
  function retireOpenSegment(): void {
    if (fd === -1) return;
    if (fsync) retiring.push(fd);
    else closeQuietly(fd);
    fd = -1;
    fdSegment = -1;
  }

  /** Opens `segment` for appending (the previous segment is synced and closed in the background). */
  function openSegment(segment: number): void {
    const next = fs.createAppendOnly(join(dir, segmentFileName(segment)));
    retireOpenSegment();
    fd = next;
    fdSegment = segment;
    fdLength = 0;
    directoryDirty = true;
  }

  /** Writes the pending batch to its segment file; settles or queues its waiters. */
  function flush(): void {
    if (batch.length === 0) return;
    const buffers = batch;
    const segment = batchSegment;
    const from = written;
    const upTo = appended;
    batch = [];
    written = upTo;
    try {
      if (segment !== fdSegment) openSegment(segment);
    } catch (error) {
      rejectWhere((waiter) => waiter.seq > from, error);
      onRollback(segment, 0, true);
      return;
    }
    const before = fdLength;
    try {
      fdLength += writeAll(buffers);
    } catch (failure) {
      // Only this batch failed; records written before it still wait for their sync.
      const { cause, written: partial } = failure as WriteFailure;
      rejectWhere((waiter) => waiter.seq > from, cause);
      fdLength = before + partial;
      rollBack(segment, before);
      return;
    }
    if (fsync) kick();
    else settle(upTo, null);
  }

  /** Cuts a failed batch off the open segment, or closes the segment if that fails too. */
  function rollBack(segment: number, to: number): void {
    try {
      fs.truncate(fd, to);
      fdLength = to;
      onRollback(segment, to, false);
    } catch {
      const length = fdLength;
      retireOpenSegment();
      onRollback(segment, length, true);
    }
  }

  function scheduledFlush(): void {
    flushScheduled = false;
    flush();
  }

  async function syncRound(): Promise<void> {
    const upTo = written;
    const current = fd;
    const closing = retiring.splice(0);
    const dirty = directoryDirty;
    directoryDirty = false;
    try {
      for (const old of closing) await fs.datasync(old);
      if (dirty) await syncDirectory(dir);
      if (current !== -1) await fs.datasync(current);
      settle(upTo, null);
    } catch (error) {
      failOpenSegment(upTo, error);
    } finally {
      for (const old of closing) closeQuietly(old);
    }
  }

  /** After a failed sync: nothing unacknowledged in the open segment can be trusted. */
  function failOpenSegment(upTo: number, error: unknown): void {
    const segment = fdSegment;
    const length = fdLength;
    if (batchSegment === segment && batch.length > 0) {
      batch = [];
      written = appended;
    }
    rejectWhere((waiter) => waiter.seq <= upTo || waiter.segment === segment, error);
    if (segment === -1) return;
    closeQuietly(fd); // never synced again: a later sync of it would prove nothing
    fd = -1;
    fdSegment = -1;
    onRollback(segment, length, true);
  }

  function settle(upTo: number, error: unknown): void {
    let done = 0;
    while (done < waiters.length && waiters[done]!.seq <= upTo) done += 1;
    for (const waiter of waiters.splice(0, done)) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }

  function kick(): void {
    if (syncing || waiters.length === 0 || waiters[0]!.seq > written) return;
    syncing = syncRound().finally(() => {
      syncing = null;
      kick();
    });
  }

  return {
    append(segment, data, durable = true) {
      // After close nothing touches the files (a late tombstone is lost, as in a crash).
      if (closed)
        return durable ? Promise.reject(new Error('the spool writer is closed')) : resolved;
      // Segments only grow: a record for a new segment ends the batch of the previous one.
      if (segment !== batchSegment) {
        flush();
        batchSegment = segment;
      }
      batch.push(data);
      appended += 1;
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(scheduledFlush);
      }
      if (!durable) return resolved;
      const seq = appended;
      return new Promise<void>((resolve, reject) => {
        waiters.push({ seq, segment, resolve, reject });
      });
    },
    async close() {
      closed = true;
      flush();
      for (let current = syncing; current; current = syncing) await current;
      // Tombstones written since the last sync become durable too.
      if (fsync && (fd !== -1 || retiring.length > 0)) await syncRound();
      for (const old of retiring.splice(0)) closeQuietly(old);
      if (fd !== -1) closeQuietly(fd);
      fd = -1;
      fdSegment = -1;
      rejectWhere(() => true, new Error('the spool writer is closed'));
    },
  };
}
