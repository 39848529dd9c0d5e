/**
 * Appends records to numbered segment files with group commit: everything queued while one
 * durable write runs goes out in the next single writev (the file is opened O_DSYNC), and each
 * caller's promise resolves only after the write that covers its record is on disk. New segment files are made durable by
 * fsyncing the directory. I/O adapter (node:fs).
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

interface Pending {
  readonly segment: number;
  readonly data: Buffer;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** The writer's interface. */
export interface GroupCommitWriter {
  /** Queues `data` for `segment` (segments are written in increasing order). */
  append(segment: number, data: Buffer): Promise<void>;
  /** Waits for everything queued, then closes files. */
  close(): Promise<void>;
}

/** Segment file name for a number (sortable). */
export function segmentFileName(segment: number): string {
  return `segment-${String(segment).padStart(10, '0')}.log`;
}

/** Creates a writer for `dir`; `fsync: false` skips durability (tests of throughput only). */
export function createGroupCommitWriter(dir: string, fsync: boolean): GroupCommitWriter {
  let queue: Pending[] = [];
  let running: Promise<void> | null = null;
  let handle: FileHandle | null = null;
  let handleSegment = -1;

  async function ensureSegment(segment: number): Promise<FileHandle> {
    if (handle && handleSegment === segment) return handle;
    if (handle) {
      if (fsync) await handle.datasync();
      await handle.close();
    }
    // O_DSYNC: each writev returns only once its data is on disk, so one thread-pool round trip
    // per batch does write + sync (instead of writev, then fdatasync).
    const flags =
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (fsync ? constants.O_DSYNC : 0);
    handle = await open(join(dir, segmentFileName(segment)), flags, 0o644);
    handleSegment = segment;
    if (fsync) await syncDirectory(dir);
    return handle;
  }

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        let start = 0;
        while (start < batch.length) {
          const segment = batch[start]!.segment;
          let end = start;
          while (end < batch.length && batch[end]!.segment === segment) end += 1;
          const file = await ensureSegment(segment);
          await file.writev(batch.slice(start, end).map((entry) => entry.data));
          start = end;
        }
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    running = null;
  }

  return {
    append(segment, data) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ segment, data, resolve, reject });
        running ??= flush();
      });
    },
    async close() {
      for (;;) {
        const current = running;
        if (!current) break;
        await current;
      }
      if (handle) {
        if (fsync) await handle.datasync();
        await handle.close();
        handle = null;
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
