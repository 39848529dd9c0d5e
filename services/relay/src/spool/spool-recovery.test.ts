/**
 * Recovery over real segment files: a corrupted record in the middle loses only itself (the
 * decoder resynchronises at the segment's marker), bytes inside an envelope body are never taken
 * for a record boundary, and format-1 segments written before the marker existed still recover
 * (`test/fixtures/spool/segment-format-1.bin` was written by the format-1 encoder: four envelopes
 * under DSN key `7:legacy`, then a tombstone for the second).
 */
import { copyFile, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { segmentFileName } from './spool-fs.js';
import { MARKER_BYTES, SEGMENT_HEADER_BYTES } from './spool-record.js';
import { createSpool, type Spool, type SpoolEntry, type SpoolOptions } from './spool.js';
import { tempDirs } from './test-support.js';

const temp = tempDirs('spool-recovery-');
afterEach(() => temp.cleanup());

const body = (n: number, extra: Buffer = Buffer.alloc(0)) =>
  Buffer.concat([Buffer.from(`{"n":${n}}\n{"type":"attachment"}\n`), extra, Buffer.alloc(30, 'y')]);
const nOf = (bytes: Uint8Array) =>
  JSON.parse(new TextDecoder().decode(bytes).split('\n')[0]!).n as number;

async function options(): Promise<SpoolOptions> {
  const dir = await temp.make();
  return {
    dir,
    maxBytes: 1 << 20,
    projectShare: 1,
    segmentBytes: 1 << 20,
    memoryBytes: 0,
    fsync: true,
  };
}

/** Writes envelopes 1..count under '1:key' and closes; returns their entries. */
async function written(opts: SpoolOptions, count: number, bodyOf = body): Promise<SpoolEntry[]> {
  const spool = createSpool(opts);
  await spool.open();
  const entries: SpoolEntry[] = [];
  for (let n = 1; n <= count; n += 1)
    entries.push((await spool.append('1:key', bodyOf(n), n)) as SpoolEntry);
  await spool.close();
  return entries;
}

async function drain(spool: Spool): Promise<Array<[string, number]>> {
  const found: Array<[string, number]> = [];
  for (let entry = spool.shift(); entry; entry = spool.shift()) {
    found.push([entry.dsnKey, nOf(await spool.readBody(entry))]);
    spool.complete(entry);
  }
  return found;
}

const flip = (file: Buffer, at: number, mask: number) =>
  void file.writeUInt8(file.readUInt8(at) ^ mask, at);

async function damage(opts: SpoolOptions, change: (file: Buffer) => void): Promise<void> {
  const path = join(opts.dir, segmentFileName(0));
  const file = await readFile(path);
  change(file);
  await writeFile(path, file);
}

describe('spool recovery', () => {
  it('skips a corrupted record in the middle and recovers every record after it', async () => {
    const opts = await options();
    const entries = await written(opts, 5);
    await damage(opts, (file) => flip(file, entries[2]!.bodyOffset + 2, 0x01));

    const spool = createSpool(opts);
    const report = await spool.open();
    const recordLength = entries[3]!.offset - entries[2]!.offset;
    expect(report).toEqual({
      recovered: 4,
      skippedRegions: 1,
      skippedBytes: recordLength,
      cutBytes: 0,
    });
    expect((await drain(spool)).map(([, n]) => n)).toEqual([1, 2, 4, 5]);
    await spool.close();
  });

  it('resynchronises when a record header is destroyed, and cuts a torn tail', async () => {
    const opts = await options();
    const entries = await written(opts, 4);
    await damage(opts, (file) => file.fill(0xee, entries[1]!.offset, entries[1]!.offset + 30));
    const path = join(opts.dir, segmentFileName(0));
    await writeFile(path, Buffer.concat([await readFile(path), Buffer.from('torn')]));

    const spool = createSpool(opts);
    expect(await spool.open()).toMatchObject({ recovered: 3, skippedRegions: 1, cutBytes: 4 });
    expect((await drain(spool)).map(([, n]) => n)).toEqual([1, 3, 4]);
    await spool.close();
  });

  it('never takes records forged inside an envelope body for real ones', async () => {
    // Record 2's body carries what a format-1 tombstone for record 1 and a format-1 envelope for
    // another DSN key look like; the damaged header of record 2 sends the decoder scanning.
    const opts = await options();
    const forged = (n: number) => (n === 2 ? forgedRecords() : undefined);
    const entries = await written(opts, 3, (n) => body(n, forged(n)));
    await damage(opts, (file) => flip(file, entries[1]!.offset + MARKER_BYTES + 12, 0x40));

    const spool = createSpool(opts);
    expect(await spool.open()).toMatchObject({ recovered: 2, skippedRegions: 1 });
    expect(await drain(spool)).toEqual([
      ['1:key', 1],
      ['1:key', 3],
    ]);
    await spool.close();

    function forgedRecords(): Buffer {
      const tombstone = Buffer.alloc(15);
      tombstone.write('SR\u0002', 'latin1');
      tombstone.writeUInt32LE(0, 3);
      tombstone.writeUInt32LE(SEGMENT_HEADER_BYTES, 7);
      tombstone.writeUInt32LE(crc32(tombstone.subarray(0, 11)), 11);
      return Buffer.concat([Buffer.alloc(MARKER_BYTES), tombstone]);
    }
  });

  it('recovers a format-1 segment, then writes format 2 and deletes the old one when drained', async () => {
    const opts = await options();
    const fixture = fileURLToPath(
      new URL('../../test/fixtures/spool/segment-format-1.bin', import.meta.url),
    );
    await copyFile(fixture, join(opts.dir, segmentFileName(0)));

    const spool = createSpool(opts);
    expect(await spool.open()).toMatchObject({ recovered: 3, skippedRegions: 0 });
    await spool.append('1:key', body(9), 9);
    expect(await drain(spool)).toEqual([
      ['7:legacy', 0],
      ['7:legacy', 2],
      ['7:legacy', 3],
      ['1:key', 9],
    ]);
    await spool.append('1:key', body(10), 10); // lets deletions and tombstones settle
    await expect
      .poll(() => readdir(opts.dir), { timeout: 10_000 })
      .not.toContain(segmentFileName(0));
    await spool.close();
  });
});
