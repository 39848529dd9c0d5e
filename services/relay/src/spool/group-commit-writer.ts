/**
 * Appends records to numbered segment files with group commit. Records are collected in call
 * order and written together once per event-loop turn (one `writev` for all the envelopes the
 * turn accepted, instead of one `write` each: the per-record syscalls were ~8 % of the relay's CPU
 * under load). One fdatasync at a time runs in the background, and each caller's promise
 * resolves once a sync that started after its record was written has finished: every record is
 * acknowledged after about one sync, and all records written meanwhile share the next one.
 * Records that need no durability (tombstones) ride along with the next write and never trigger
 * a sync themselves. A new segment file is made durable by fsyncing the directory, and the
 * previous segment is synced before it is closed. I/O adapter (node:fs).
 */
import { closeSync, fdatasync, openSync, writeSync, writevSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const fdatasyncAsync = promisify(fdatasync);
/** Buffers per writev call (Linux IOV_MAX is 1024). */
const MAX_IOVECS = 1024;

interface Waiter {
  readonly seq: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

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

/** Segment file name for a number (sortable). */
export function segmentFileName(segment: number): string {
  return `segment-${String(segment).padStart(10, '0')}.log`;
}

const resolved = Promise.resolve();

/** Creates a writer for `dir`; `fsync: false` skips durability (throughput comparisons only). */
export function createGroupCommitWriter(dir: string, fsync: boolean): GroupCommitWriter {
  let fd = -1;
  let fdSegment = -1;
  /** Sequence number of the last appended record, and of the last one written to its file. */
  let appended = 0;
  let written = 0;
  let batch: Buffer[] = [];
  let batchSegment = -1;
  let flushScheduled = false;
  let syncing: Promise<void> | null = null;
  let directoryDirty = false;
  const retiring: number[] = [];
  const waiters: Waiter[] = [];

  function writeAll(buffers: Buffer[]): void {
    for (let start = 0; start < buffers.length; start += MAX_IOVECS) {
      const chunk = buffers.slice(start, start + MAX_IOVECS);
      let total = 0;
      for (const buffer of chunk) total += buffer.length;
      const done = writevSync(fd, chunk);
      if (done < total) {
        // A short write (rare for regular files): finish the rest with plain writes.
        const rest = Buffer.concat(chunk).subarray(done);
        let offset = 0;
        while (offset < rest.length) offset += writeSync(fd, rest, offset, rest.length - offset);
      }
    }
  }

  /** Writes the pending batch to its segment file; settles or queues its waiters. */
  function flush(): void {
    if (batch.length === 0) return;
    const buffers = batch;
    const from = written;
    const upTo = appended;
    batch = [];
    try {
      if (batchSegment !== fdSegment) {
        if (fd !== -1) {
          if (fsync) retiring.push(fd);
          else closeSync(fd);
        }
        fd = openSync(join(dir, segmentFileName(batchSegment)), 'a');
        fdSegment = batchSegment;
        directoryDirty = true;
      }
      writeAll(buffers);
    } catch (error) {
      // Only this batch failed; records written before it still wait for their sync.
      const first = waiters.findIndex((waiter) => waiter.seq > from);
      const failed = first === -1 ? [] : waiters.splice(first);
      for (const waiter of failed) waiter.reject(error);
      written = upTo;
      return;
    }
    written = upTo;
    if (fsync) kick();
    else settle(upTo, null);
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
      for (const old of closing) {
        await fdatasyncAsync(old);
        closeSync(old);
      }
      if (dirty) await syncDirectory(dir);
      await fdatasyncAsync(current);
      settle(upTo, null);
    } catch (error) {
      settle(upTo, error);
    }
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
        waiters.push({ seq, resolve, reject });
      });
    },
    async close() {
      flush();
      for (;;) {
        const current = syncing;
        if (!current) break;
        await current;
      }
      for (const old of retiring.splice(0)) closeSync(old);
      if (fd !== -1) {
        if (fsync) await fdatasyncAsync(fd);
        closeSync(fd);
        fd = -1;
        fdSegment = -1;
      }
      settle(written, null);
    },
  };
}

/** fsyncs a directory so a created or removed entry survives a crash. */
export async function syncDirectory(dir: string): Promise<void> {
  const dirHandle = await open(dir, 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}
