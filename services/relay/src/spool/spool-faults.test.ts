/**
 * The spool under injected disk faults (real files, faults from `faultyFs`): failed writes give
 * their bytes back, a write cut short by a full disk leaves no torn record behind later ones,
 * a failed sync closes the segment, a crash between write and fsync loses nothing acknowledged,
 * and reads fail cleanly.
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { segmentFileName } from './spool-fs.js';
import { decodeSegment } from './spool-record.js';
import { createSpool, SpoolRecordCorruptError, type Spool, type SpoolOptions } from './spool.js';
import { faultyFs, tempDirs, type FaultyFs } from './test-support.js';

const temp = tempDirs('spool-faults-');
afterEach(() => temp.cleanup());

async function options(overrides: Partial<SpoolOptions> = {}): Promise<SpoolOptions> {
  return {
    dir: await temp.make(),
    maxBytes: 1 << 20,
    projectShare: 1,
    segmentBytes: 1 << 20,
    memoryBytes: 0,
    fsync: true,
    ...overrides,
  };
}

const body = (n: number) =>
  new TextEncoder().encode(`{"n":${n}}\n{"type":"event"}\n{"x":"${'x'.repeat(60)}"}`);
const nOf = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes).split('\n')[0]!).n;

async function opened(opts: SpoolOptions, faults?: FaultyFs): Promise<Spool> {
  const spool = createSpool({ ...opts, ...(faults ? { fs: faults.fs } : {}) });
  await spool.open();
  return spool;
}

/** Appends `n` on its own (one batch), resolving with whether it was acknowledged. */
async function acked(spool: Spool, n: number, key = '1:key'): Promise<boolean> {
  try {
    return typeof (await spool.append(key, body(n), 1000 + n)) === 'object';
  } catch {
    return false;
  }
}

/** Reopens the directory with a fresh spool and returns the recovered envelope numbers. */
async function recoveredAfterRestart(opts: SpoolOptions): Promise<number[]> {
  const spool = await opened(opts);
  const found: number[] = [];
  for (let entry = spool.shift(); entry; entry = spool.shift()) {
    found.push(nOf(await spool.readBody(entry)));
  }
  await spool.close();
  return found;
}

async function bytesOnDisk(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) total += (await stat(join(dir, name))).size;
  return total;
}

describe('spool write failures', () => {
  it('gives the bytes of failed writes back, so disk errors never drift it to full', async () => {
    const faults = faultyFs();
    const opts = await options({ maxBytes: 1200 });
    const spool = await opened(opts, faults);
    expect(await acked(spool, 0)).toBe(true);
    for (let n = 1; n <= 40; n += 1) {
      faults.failWrites(1);
      expect(await acked(spool, n)).toBe(false);
    }
    expect(spool.stats().bytes).toBe(await bytesOnDisk(opts.dir));
    expect(await acked(spool, 41)).toBe(true);
    expect(spool.stats()).toMatchObject({ queued: 2, bytes: await bytesOnDisk(opts.dir) });
    await spool.close();
    expect(await recoveredAfterRestart(opts)).toEqual([0, 41]);
  });

  it('cuts a record torn by a full disk before later records are appended', async () => {
    const faults = faultyFs();
    const opts = await options();
    const spool = await opened(opts, faults);
    expect(await acked(spool, 1)).toBe(true);
    expect(await acked(spool, 2)).toBe(true);
    faults.spaceLeft = 50; // the next record is written part-way, then ENOSPC
    expect(await acked(spool, 3)).toBe(false);
    faults.spaceLeft = Number.POSITIVE_INFINITY; // space was freed
    expect(await acked(spool, 4)).toBe(true);
    expect(await acked(spool, 5)).toBe(true);
    await spool.close();

    const file = await readFile(join(opts.dir, segmentFileName(0)));
    const decoded = decodeSegment(file);
    expect(decoded).toMatchObject({ validLength: file.length, skippedRegions: 0 });
    expect(spool.stats().bytes).toBe(file.length);
    expect(await recoveredAfterRestart(opts)).toEqual([1, 2, 4, 5]);
  });

  it('closes the segment when the torn record cannot be cut, and goes on in a new one', async () => {
    const faults = faultyFs();
    const opts = await options();
    const spool = await opened(opts, faults);
    expect(await acked(spool, 1)).toBe(true);
    faults.spaceLeft = 50;
    faults.failTruncates(1);
    expect(await acked(spool, 2)).toBe(false);
    faults.spaceLeft = Number.POSITIVE_INFINITY;
    expect(await acked(spool, 3)).toBe(true);
    await spool.close();
    expect((await readdir(opts.dir)).sort()).toEqual([segmentFileName(0), segmentFileName(1)]);
    expect(spool.stats().bytes).toBe(await bytesOnDisk(opts.dir));
    expect(await recoveredAfterRestart(opts)).toEqual([1, 3]);
  });

  it('rejects what a failed fsync covered and never appends to that segment again', async () => {
    const faults = faultyFs();
    const opts = await options();
    const spool = await opened(opts, faults);
    expect(await acked(spool, 1)).toBe(true);
    faults.failSyncs(1);
    expect(await acked(spool, 2)).toBe(false);
    expect(await acked(spool, 3)).toBe(true);
    await spool.close();
    expect((await readdir(opts.dir)).sort()).toEqual([segmentFileName(0), segmentFileName(1)]);
    // 2 was never acknowledged; its complete record may come back (at-least-once), 1 and 3 must.
    expect(await recoveredAfterRestart(opts)).toEqual([1, 2, 3]);
  });

  it('loses nothing acknowledged in a crash between write and fsync, even mid-write', async () => {
    const faults = faultyFs();
    const opts = await options();
    const spool = await opened(opts, faults);
    expect(await acked(spool, 1)).toBe(true);
    expect(await acked(spool, 2)).toBe(true);
    faults.holdSyncs(); // the disk never finishes this sync: the process dies first
    let thirdAcked = false;
    let writes = faults.counts.writes;
    void spool.append('1:key', body(3), 0).then(() => (thirdAcked = true));
    await expect.poll(() => faults.counts.writes, { timeout: 10_000 }).toBeGreaterThan(writes);
    faults.spaceLeft = 40; // and the next batch is cut off mid-record by the crash
    faults.failTruncates(1);
    writes = faults.counts.writes;
    void spool.append('1:key', body(4), 0).catch(() => undefined);
    await expect.poll(() => faults.counts.writes, { timeout: 10_000 }).toBeGreaterThan(writes);
    faults.crash();
    expect(thirdAcked).toBe(false);

    const recovered = await recoveredAfterRestart(opts); // the abandoned spool is never closed
    expect(recovered.slice(0, 2)).toEqual([1, 2]);
    expect(recovered.filter((n) => n > 2)).toEqual([3]); // written in full, never acknowledged
  });
});

describe('spool reads', () => {
  it('rejects a body read with the disk error, and detects a record corrupted on disk', async () => {
    const faults = faultyFs();
    const opts = await options();
    const spool = await opened(opts, faults);
    await spool.append('1:key', body(1), 0);
    await spool.append('1:key', body(2), 0);
    const first = spool.shift()!;
    const second = spool.shift()!;
    faults.failReads(1);
    await expect(spool.readBody(first)).rejects.toMatchObject({ code: 'EIO' });
    expect(nOf(await spool.readBody(first))).toBe(1);

    const path = join(opts.dir, segmentFileName(0));
    const file = await readFile(path);
    file.writeUInt8(file.readUInt8(second.bodyOffset + 3) ^ 0xff, second.bodyOffset + 3);
    const { writeFile } = await import('node:fs/promises');
    await writeFile(path, file);
    await expect(spool.readBody(second)).rejects.toBeInstanceOf(SpoolRecordCorruptError);
    await spool.close();
  });
});

describe('per-DSN share of the spool', () => {
  it('refuses a DSN key beyond its share while others still fit, and frees it on delivery', async () => {
    const opts = await options({ maxBytes: 3000, projectShare: 0.4 });
    const spool = await opened(opts);
    let flooded = 0;
    let refusal: unknown;
    for (; flooded < 50 && refusal === undefined; flooded += 1) {
      const result = await spool.append('1:flood', body(flooded), 0);
      if (typeof result === 'string') refusal = result;
    }
    flooded -= 1; // the last one was refused
    expect(refusal).toBe('over-share');
    expect(flooded).toBeGreaterThan(0);
    for (let n = 0; n < flooded; n += 1) {
      expect(typeof (await spool.append('2:honest', body(n), 0))).toBe('object');
    }
    expect(await spool.append('1:flood', body(99), 0)).toBe('over-share');
    spool.complete(spool.shift((key) => key === '1:flood')!);
    expect(typeof (await spool.append('1:flood', body(99), 0))).toBe('object');
    expect(await spool.append('1:flood', body(100), 0)).toBe('over-share');
    await spool.close();

    const reopened = await opened(opts); // recovered envelopes count against the share too
    expect(await reopened.append('1:flood', body(101), 0)).toBe('over-share');
    await reopened.close();
  });
});
