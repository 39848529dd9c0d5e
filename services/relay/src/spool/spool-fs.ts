/**
 * The file operations the spool performs, behind one small interface so tests can inject faults
 * (disk full mid-write, EIO, a crash) into the real spool. `nodeSpoolFs` is the production
 * adapter over node:fs. Also the segment file names, the directory sync and deleting drained
 * segments.
 */
import { closeSync, fdatasync, ftruncateSync, openSync, writeSync, writevSync } from 'node:fs';
import { open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** Segment file name for a number (sortable). */
export function segmentFileName(segment: number): string {
  return `segment-${String(segment).padStart(10, '0')}.log`;
}

/** Whether a directory entry is a segment file (a name `segmentFileName` gives). */
export function isSegmentFileName(name: string): boolean {
  return /^segment-\d{10}\.log$/.test(name);
}

/** File operations of the spool writer and reader. */
export interface SpoolFs {
  /** Creates a new segment file for appending; fails if it exists. */
  createAppendOnly(path: string): number;
  writev(fd: number, buffers: readonly Buffer[]): number;
  write(fd: number, buffer: Buffer, offset: number, length: number): number;
  truncate(fd: number, length: number): void;
  close(fd: number): void;
  datasync(fd: number): Promise<void>;
  /** Reads `length` bytes at `position`; resolves with fewer at the end of the file. */
  read(path: string, position: number, length: number): Promise<Buffer>;
}

const fdatasyncAsync = promisify(fdatasync);

/** node:fs. */
export const nodeSpoolFs: SpoolFs = {
  createAppendOnly: (path) => openSync(path, 'ax'),
  writev: (fd, buffers) => writevSync(fd, buffers as Buffer[]),
  write: (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length),
  truncate: (fd, length) => ftruncateSync(fd, length),
  close: (fd) => closeSync(fd),
  datasync: (fd) => fdatasyncAsync(fd),
  async read(path, position, length) {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  },
};

/** fsyncs a directory so a created or removed entry survives a crash. */
export async function syncDirectory(dir: string): Promise<void> {
  const dirHandle = await open(dir, 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}

/** Deletes segment files, then (with `fsync`) syncs the directory; best effort, errors ignored. */
export async function deleteSegmentFiles(
  dir: string,
  segments: readonly number[],
  fsync: boolean,
): Promise<void> {
  for (const segment of segments) {
    await unlink(join(dir, segmentFileName(segment))).catch(() => undefined);
  }
  if (segments.length > 0 && fsync) await syncDirectory(dir).catch(() => undefined);
}
