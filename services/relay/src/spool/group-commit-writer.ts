/**
 * Appends records to numbered segment files with group commit. Records are written at once (a
 * small synchronous append to the page cache, so order is the call order); one fdatasync at a
 * time runs in the background, and each caller's promise resolves once a sync that started after
 * its write has finished: every record is acknowledged after about one sync, and all records
 * written meanwhile share the next one. Records that need no durability (tombstones) never
 * trigger a sync themselves. A new segment file is made durable by fsyncing the directory, and
 * the previous segment is synced before it is closed. I/O adapter (node:fs).
 */
import { closeSync, fdatasync, openSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const fdatasyncAsync = promisify(fdatasync);

interface Waiter {
  readonly seq: number;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** The writer's interface. */
export interface GroupCommitWriter {
  /**
   * Appends `data` to `segment` (segments only grow). Resolves when the record is durable; with
   * `durable` false (or fsync off) it resolves at once and rides along with the next sync.
   */
  append(segment: number, data: Buffer, durable?: boolean): Promise<void>;
  /** Waits for pending syncs, then syncs and closes the open segment. */
  close(): Promise<void>;
}

/** Segment file name for a number (sortable). */
export function segmentFileName(segment: number): string {
  return `segment-${String(segment).padStart(10, '0')}.log`;
}

/** Creates a writer for `dir`; `fsync: false` skips durability (throughput comparisons only). */
export function createGroupCommitWriter(dir: string, fsync: boolean): GroupCommitWriter {
  let fd = -1;
  let fdSegment = -1;
  let written = 0;
  let syncing: Promise<void> | null = null;
  let directoryDirty = false;
  const retiring: number[] = [];
  const waiters: Waiter[] = [];

  function writeAll(data: Buffer): void {
    let offset = 0;
    while (offset < data.length) offset += writeSync(fd, data, offset, data.length - offset);
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
    if (syncing || waiters.length === 0) return;
    syncing = syncRound().finally(() => {
      syncing = null;
      kick();
    });
  }

  return {
    append(segment, data, durable = true) {
      try {
        if (segment !== fdSegment) {
          if (fd !== -1) retiring.push(fd);
          fd = openSync(join(dir, segmentFileName(segment)), 'a');
          fdSegment = segment;
          directoryDirty = true;
        }
        writeAll(data);
      } catch (error) {
        return Promise.reject(error);
      }
      written += 1;
      if (!fsync || !durable) return Promise.resolve();
      const seq = written;
      return new Promise<void>((resolve, reject) => {
        waiters.push({ seq, resolve, reject });
        kick();
      });
    },
    async close() {
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
