/** Leases on a real directory: what one replica holds, another cannot take until it goes stale. */
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createSpool } from '../spool/spool.js';
import { claimSpoolSlot, clearIfDrained } from './shared-spool.js';
import { leaseSlot, readSlots, type LeaseOptions } from './slot-directory.js';

let root: string;
beforeEach(async () => (root = await mkdtemp(join(tmpdir(), 'relay-slots-'))));
afterEach(() => rm(root, { recursive: true, force: true }));

const lost: Error[] = [];
const as = (instanceId: string): LeaseOptions => ({
  instanceId,
  staleMs: 2000,
  onLost: (error) => lost.push(error),
});

it('gives each replica its own slot, and a freed slot to the next', async () => {
  const a = await claimSpoolSlot(root, as('a'));
  const b = await claimSpoolSlot(root, as('b'));
  expect([a.slot, b.slot]).toEqual([0, 1]);
  expect(await readFile(join(a.dir, 'owner'), 'utf8')).toBe('a');
  expect(await leaseSlot(root, 0, as('c'))).toBeUndefined();

  await a.release();
  const c = await claimSpoolSlot(root, as('c'));
  expect(c.slot).toBe(0);
  expect((await readSlots(root, 2000)).map((s) => [s.slot, s.owner, s.leased])).toEqual([
    [0, 'c', true],
    [1, 'b', true],
  ]);
  await Promise.all([b.release(), c.release()]);
  expect(lost).toEqual([]);
});

it('lets an instance take back its own slot at once after a crash, and nobody else', async () => {
  const first = await claimSpoolSlot(root, as('a'));
  // A crash: the lease is never released and still looks fresh.
  expect(await leaseSlot(root, first.slot, as('b'))).toBeUndefined();
  const again = await claimSpoolSlot(root, as('a'));
  expect(again.slot).toBe(first.slot);
  await again.release();
});

it('treats a lease not refreshed within the stale time as free', async () => {
  await mkdir(join(root, 'slot-000'));
  await writeFile(join(root, 'slot-000', 'owner'), 'gone');
  await writeFile(join(root, 'slot-000', 'segment-0000000000.log'), '');
  await mkdir(join(root, 'slot-000.lock'));
  const old = new Date(Date.now() - 5000);
  await utimes(join(root, 'slot-000.lock'), old, old);

  const [found] = await readSlots(root, 2000);
  expect(found).toEqual({ slot: 0, owner: 'gone', leased: false, hasSegments: true });
  const taken = await leaseSlot(root, 0, as('b'));
  expect(taken?.slot).toBe(0);
  await taken?.release();
});

it('clears a slot only when none of its envelopes is pending', async () => {
  const lease = await claimSpoolSlot(root, as('a'));
  const openSlotSpool = async () => {
    const spool = createSpool({
      dir: lease.dir,
      maxBytes: 1 << 20,
      projectShare: 1,
      segmentBytes: 1 << 16,
      memoryBytes: 1 << 16,
      fsync: false,
    });
    await spool.open();
    return spool;
  };
  const writing = await openSlotSpool();
  await writing.append('key', new TextEncoder().encode('{}\n'), Date.now());
  await writing.close();
  expect(await clearIfDrained(lease.dir)).toBe(false);
  expect((await readSlots(root, 2000))[0]?.hasSegments).toBe(true);

  const delivering = await openSlotSpool();
  const pending = delivering.shift();
  expect(pending?.dsnKey).toBe('key');
  delivering.complete(pending!);
  await delivering.close();
  expect(await clearIfDrained(lease.dir)).toBe(true);
  expect((await readSlots(root, 2000))[0]?.hasSegments).toBe(false);
  await lease.release();
});

it('moves the segments a lone relay left at the root into the first slot claimed', async () => {
  const names = ['segment-0000000003.log', 'segment-0000000004.log'];
  for (const name of names) await writeFile(join(root, name), name);
  const a = await claimSpoolSlot(root, as('a'));
  expect((await readdir(root)).filter((name) => name.startsWith('segment-'))).toEqual([]);
  expect((await readdir(a.dir)).filter((name) => name.startsWith('segment-'))).toEqual(names);
  expect(await readFile(join(a.dir, names[1]!), 'utf8')).toBe(names[1]);
  await a.release();
});
