import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createGroupCommitWriter } from './group-commit-writer.js';
import { segmentFileName } from './spool-fs.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'writer-test-'));
  dirs.push(dir);
  return dir;
}
const record = (n: number) => Buffer.from(`<${n}>`);

describe('group commit writer', () => {
  it.each([true, false])(
    'acknowledges a record only once it is in its file (fsync %s)',
    async (fsync) => {
      const dir = await tempDir();
      const writer = createGroupCommitWriter({ dir, fsync });
      const seen: boolean[] = [];
      const acks = Array.from({ length: 50 }, (_, n) =>
        writer.append(0, record(n)).then(() => {
          const file = readFileSync(join(dir, segmentFileName(0)), 'utf8');
          seen.push(file.includes(`<${n}>`));
        }),
      );
      await Promise.all(acks);
      expect(seen).toEqual(Array.from({ length: 50 }, () => true));
      await writer.close();
    },
  );

  it('writes concurrent appends in call order across segments, in one batch per turn', async () => {
    const dir = await tempDir();
    const writer = createGroupCommitWriter({ dir, fsync: true });
    const order: number[] = [];
    const acks = Array.from({ length: 30 }, (_, n) =>
      writer.append(n < 10 ? 0 : n < 20 ? 1 : 2, record(n)).then(() => order.push(n)),
    );
    await Promise.all(acks);
    expect(order).toEqual(Array.from({ length: 30 }, (_, n) => n));
    expect((await readdir(dir)).sort()).toEqual([0, 1, 2].map(segmentFileName));
    const expected = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `<${from + i}>`).join('');
    expect(await readFile(join(dir, segmentFileName(0)), 'utf8')).toBe(expected(0, 10));
    expect(await readFile(join(dir, segmentFileName(1)), 'utf8')).toBe(expected(10, 20));
    expect(await readFile(join(dir, segmentFileName(2)), 'utf8')).toBe(expected(20, 30));
    await writer.close();
  });

  it('writes records that need no durability with the next batch, or at close', async () => {
    const dir = await tempDir();
    const writer = createGroupCommitWriter({ dir, fsync: true });
    await writer.append(0, record(1), false);
    await writer.append(0, record(2));
    expect(await readFile(join(dir, segmentFileName(0)), 'utf8')).toBe('<1><2>');
    void writer.append(0, record(3), false);
    await writer.close();
    expect(await readFile(join(dir, segmentFileName(0)), 'utf8')).toBe('<1><2><3>');
  });

  it('rejects the appends of a batch that cannot be written', async () => {
    const dir = join(await tempDir(), 'missing');
    const writer = createGroupCommitWriter({ dir, fsync: true });
    await expect(writer.append(0, record(1))).rejects.toThrow(/ENOENT/);
    await writer.close();
  });
});
