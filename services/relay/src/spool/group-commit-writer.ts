/**
 * Appends records to numbered segment files with group commit: everything queued while one
 * write+fdatasync runs goes out in the next single writev+fdatasync, and each caller's promise
 * resolves only after the sync that covers its record. Batches holding only records that need
 * no durability (tombstones) skip the sync. New segment files are made durable by fsyncing the
 * directory. I/O adapter (node:fs).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

interface Pending {
  readonly segment: number;
  readonly data: Buffer;
  readonly durable: boolean;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/** The writer's interface. */
export interface GroupCommitWriter {
  /**
   * Queues `data` for `segment` (segments are written in increasing order). With `durable`
   * false the record rides along with the next sync but does not force one.
   */
  append(segment: number, data: Buffer, durable?: boolean): Promise<void>;
  /** Waits for everything queued, then closes files. */
  close(): Promise<void>;
}

/** Segment file name for a number (sortable). */
export function segmentFileName(segment: number): string {
  return `segment-${String(segment).padStart(10, '0')}.log`;
}

/** Creates a writer for `dir`; `fsync: false` skips durability (throughput comparisons only). */
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
    handle = await open(join(dir, segmentFileName(segment)), 'a');
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
        if (fsync && handle && batch.some((entry) => entry.durable)) await handle.datasync();
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    running = null;
  }

  return {
    append(segment, data, durable = true) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ segment, data, durable, resolve, reject });
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
