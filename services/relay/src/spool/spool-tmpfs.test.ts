/**
 * A real full disk: the spool on a 1 MiB tmpfs (mounted here; needs root, as CI runs) fills it
 * until writes fail part-way, then space is freed. Nothing acknowledged is lost, no torn record
 * sits behind later ones, and the spool's byte count matches the files, so it recovers instead of
 * staying "full".
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSpool, type SpoolEntry, type SpoolOptions } from './spool.js';

const mountPoint = mkdtempSync(join(tmpdir(), 'spool-tmpfs-'));
const mounted = (() => {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
})();

beforeAll(() => {
  if (!mounted) console.warn('spool-tmpfs.test: not root or mount refused; test skipped');
});
afterAll(() => {
  // Lazily: a failed test may leave a spool file open on it.
  if (mounted) execFileSync('umount', ['-l', mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

const body = (n: number) =>
  Buffer.concat([Buffer.from(`{"n":${n}}\n{"type":"attachment"}\n`), Buffer.alloc(5000, n % 251)]);

it.skipIf(!mounted)(
  'survives a real disk filling mid-write without losing acknowledged envelopes',
  async () => {
    const dir = join(mountPoint, 'spool');
    const ballast = join(mountPoint, 'ballast');
    await writeFile(ballast, Buffer.alloc(512 * 1024));
    const opts: SpoolOptions = {
      dir,
      maxBytes: 64 << 20, // far above the disk: the disk is what runs out
      projectShare: 1,
      segmentBytes: 4 << 20, // one segment: later records land right behind a failed one
      memoryBytes: 0,
      fsync: true,
    };
    const spool = createSpool(opts);
    await spool.open();
    const acknowledged: number[] = [];
    const failures: unknown[] = [];
    let n = 0;
    const sizeOnDisk = async () => {
      let total = 0;
      for (const name of await readdir(dir)) total += (await stat(join(dir, name))).size;
      return total;
    };
    for (; failures.length < 5; n += 1) {
      try {
        await spool.append('1:key', body(n), n);
        acknowledged.push(n);
      } catch (error) {
        failures.push((error as NodeJS.ErrnoException).code);
      }
    }
    expect(failures).toEqual(Array(5).fill('ENOSPC'));
    expect(spool.stats().bytes).toBe(await sizeOnDisk());
    await rm(ballast); // an operator frees space
    for (const more = n + 20; n < more; n += 1) {
      await spool.append('1:key', body(n), n);
      acknowledged.push(n);
    }
    expect(spool.stats().bytes).toBe(await sizeOnDisk());
    await spool.close();

    const reopened = createSpool(opts);
    const report = await reopened.open();
    expect(report).toMatchObject({ recovered: acknowledged.length, skippedRegions: 0 });
    const recovered: number[] = [];
    for (let entry = reopened.shift(); entry; entry = reopened.shift()) {
      const bytes = Buffer.from(await reopened.readBody(entry as SpoolEntry));
      recovered.push(JSON.parse(bytes.toString('utf8').split('\n')[0]!).n);
    }
    expect(recovered).toEqual(acknowledged);
    await reopened.close();
  },
);
