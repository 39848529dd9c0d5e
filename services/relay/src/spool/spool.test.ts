import { appendFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSpool, type SpoolOptions } from './spool.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function options(overrides: Partial<SpoolOptions> = {}): Promise<SpoolOptions> {
  const dir = await mkdtemp(join(tmpdir(), 'spool-test-'));
  dirs.push(dir);
  return {
    dir,
    maxBytes: 1 << 20,
    projectShare: 1,
    segmentBytes: 256,
    memoryBytes: 64,
    fsync: true,
    ...overrides,
  };
}

const body = (n: number) =>
  new TextEncoder().encode(`{"n":${n}}\n{"type":"event"}\n${'x'.repeat(40)}`);
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('spool', () => {
  it('recovers pending envelopes in order, skips completed ones, and cuts a torn tail', async () => {
    const opts = await options();
    const first = createSpool(opts);
    await first.open();
    for (let n = 0; n < 10; n += 1) await first.append('1:key', body(n), 1000 + n);
    for (let n = 0; n < 4; n += 1) first.complete(first.shift()!);
    await first.close();
    const segments = (await readdir(opts.dir)).sort();
    expect(segments.length).toBeGreaterThan(1); // 256-byte segments rotate
    await appendFile(join(opts.dir, segments.at(-1)!), Buffer.from('SR\u0001torn-write'));

    const second = createSpool(opts);
    expect(await second.open()).toMatchObject({ recovered: 6 });
    const recovered: string[] = [];
    for (let entry = second.shift(); entry; entry = second.shift()) {
      expect(entry.dsnKey).toBe('1:key');
      recovered.push(text(await second.readBody(entry)).split('\n')[0]!);
    }
    expect(recovered).toEqual([4, 5, 6, 7, 8, 9].map((n) => `{"n":${n}}`));
    await second.close();
  });

  it('refuses appends beyond its byte bound', async () => {
    const spool = createSpool(await options({ maxBytes: 260 }));
    await spool.open();
    expect(await spool.append('1:key', body(1), 0)).not.toBe('full');
    expect(await spool.append('1:key', body(2), 0)).not.toBe('full');
    expect(await spool.append('1:key', body(3), 0)).toBe('full');
    await spool.close();
  });

  it('deletes drained segments oldest first', async () => {
    const opts = await options();
    const spool = createSpool(opts);
    await spool.open();
    for (let n = 0; n < 12; n += 1) await spool.append('1:key', body(n), n);
    const before = (await readdir(opts.dir)).length;
    for (let n = 0; n < 12; n += 1) spool.complete(spool.shift()!);
    await spool.append('1:key', body(99), 99); // lets pending deletions and tombstones settle
    await expect
      .poll(async () => (await readdir(opts.dir)).length, { timeout: 10_000 })
      .toBeLessThan(before);
    expect(spool.stats()).toMatchObject({ pending: 1, queued: 1 });
    await spool.close();
  });
});
