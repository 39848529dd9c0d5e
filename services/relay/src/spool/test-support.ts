/**
 * Fault injection for the spool tests: a `SpoolFs` over the real node:fs adapter that can run out
 * of space part-way through a write, fail writes, truncations, syncs and reads with an errno,
 * hold syncs, or "crash" (nothing more reaches the disk). Plus temporary directories. Test-only;
 * not imported by production code.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeSpoolFs, type SpoolFs } from './spool-fs.js';

/** An errno-style error like node:fs throws. */
export function fsError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: injected fault`), { code });
}

/** A controllable faulty file system. */
export interface FaultyFs {
  readonly fs: SpoolFs;
  /** Bytes the disk still accepts (Infinity = unlimited); a write past it is short, then ENOSPC. */
  spaceLeft: number;
  /** The next `n` writes fail with `code` before writing anything. */
  failWrites(n: number, code?: string): void;
  failTruncates(n: number): void;
  failSyncs(n: number, code?: string): void;
  failReads(n: number, code?: string): void;
  /** Syncs wait until the returned function is called. */
  holdSyncs(): () => void;
  /** From now on every operation throws: the process is gone, nothing more reaches the disk. */
  crash(): void;
  readonly counts: { reads: number; writes: number; syncs: number };
}

/** Wraps the real node:fs adapter with switchable faults. */
export function faultyFs(): FaultyFs {
  const failing = { writes: 0, truncates: 0, syncs: 0, reads: 0 };
  const codes = { writes: 'EIO', syncs: 'EIO', reads: 'EIO' };
  let crashed = false;
  let held: Promise<void> | null = null;
  const counts = { reads: 0, writes: 0, syncs: 0 };

  const guard = (): void => {
    if (crashed) throw fsError('ECRASHED');
  };
  const take = (kind: keyof typeof failing): boolean => {
    if (failing[kind] === 0) return false;
    failing[kind] -= 1;
    return true;
  };

  const state: FaultyFs = {
    spaceLeft: Number.POSITIVE_INFINITY,
    counts,
    failWrites: (n, code = 'EIO') => ((failing.writes = n), (codes.writes = code)),
    failTruncates: (n) => void (failing.truncates = n),
    failSyncs: (n, code = 'EIO') => ((failing.syncs = n), (codes.syncs = code)),
    failReads: (n, code = 'EIO') => ((failing.reads = n), (codes.reads = code)),
    holdSyncs() {
      let release = (): void => undefined;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = null;
        release();
      };
    },
    crash: () => void (crashed = true),
    fs: {
      createAppendOnly(path) {
        guard();
        return nodeSpoolFs.createAppendOnly(path);
      },
      writev(fd, buffers) {
        return state.fs.write(
          fd,
          Buffer.concat(buffers),
          0,
          buffers.reduce((n, b) => n + b.length, 0),
        );
      },
      write(fd, buffer, offset, length) {
        guard();
        counts.writes += 1;
        if (take('writes')) throw fsError(codes.writes);
        if (state.spaceLeft <= 0) throw fsError('ENOSPC');
        const allowed = Math.min(length, state.spaceLeft);
        state.spaceLeft -= allowed;
        return nodeSpoolFs.write(fd, buffer, offset, allowed);
      },
      truncate(fd, length) {
        guard();
        if (take('truncates')) throw fsError('EIO');
        nodeSpoolFs.truncate(fd, length);
      },
      close: (fd) => nodeSpoolFs.close(fd),
      async datasync(fd) {
        guard();
        counts.syncs += 1;
        if (held) await held;
        guard();
        if (take('syncs')) throw fsError(codes.syncs);
        await nodeSpoolFs.datasync(fd);
      },
      async read(path, position, length) {
        guard();
        counts.reads += 1;
        if (take('reads')) throw fsError(codes.reads);
        return nodeSpoolFs.read(path, position, length);
      },
    },
  };
  return state;
}

/** Temporary directories removed by `cleanup()`. */
export function tempDirs(prefix: string) {
  const dirs: string[] = [];
  return {
    async make(): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    async cleanup(): Promise<void> {
      for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
    },
  };
}
