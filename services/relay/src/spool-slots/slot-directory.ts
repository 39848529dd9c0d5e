/**
 * The slots of a spool root shared by several relay replicas (one volume, one directory each).
 * A slot is leased with proper-lockfile: a lock directory beside the slot whose mtime its holder
 * refreshes; a lock not refreshed for `staleMs` belongs to a replica that is gone and may be
 * taken. The slot's `owner` file names the instance that last leased it, so a relay restarted in
 * the same container takes its own slot back at once instead of waiting for the lock to go stale.
 * I/O adapter; the choice of slot is slot-choice.ts.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type lockfile from 'proper-lockfile';
import { isSegmentFileName } from '../spool/spool-fs.js';
import { slotDirectoryName, slotOfDirectoryName, type SlotState } from './slot-choice.js';

const OWNER_FILE = 'owner';

/**
 * proper-lockfile, loaded on first use: it brings graceful-fs (which patches node:fs for the whole
 * process) and signal-exit, and a relay with a spool of its own needs neither.
 */
export async function loadLockfile(): Promise<typeof lockfile> {
  return (await import('proper-lockfile')).default;
}

/** A held slot. */
export interface SlotLease {
  readonly slot: number;
  readonly dir: string;
  /** Gives the slot up (after its spool is closed). */
  release(): Promise<void>;
}

/** How leases are taken and kept. */
export interface LeaseOptions {
  readonly instanceId: string;
  /** A lease not refreshed for this long is free to take. */
  readonly staleMs: number;
  /** The lease was lost (refreshing failed, or another replica took it): stop writing. */
  readonly onLost: (error: Error) => void;
}

const lockPathOf = (root: string, slot: number) => join(root, `${slotDirectoryName(slot)}.lock`);
const lockOptions = (root: string, slot: number, staleMs: number) => ({
  stale: staleMs,
  realpath: false,
  lockfilePath: lockPathOf(root, slot),
});

/** Reads every slot under `root` (created if missing). */
export async function readSlots(root: string, staleMs: number): Promise<SlotState[]> {
  await mkdir(root, { recursive: true });
  const slots: SlotState[] = [];
  for (const name of await readdir(root)) {
    const slot = slotOfDirectoryName(name);
    if (slot === undefined) continue;
    const dir = join(root, name);
    const files = await readdir(dir).catch(() => [] as string[]);
    slots.push({
      slot,
      owner: await readOwner(dir),
      leased: await (await loadLockfile()).check(dir, lockOptions(root, slot, staleMs)),
      hasSegments: files.some(isSegmentFileName),
    });
  }
  return slots;
}

/**
 * Leases `slot` if it is free, stale, or was this instance's own; resolves undefined if another
 * live replica holds it.
 */
export async function leaseSlot(
  root: string,
  slot: number,
  options: LeaseOptions,
): Promise<SlotLease | undefined> {
  const dir = join(root, slotDirectoryName(slot));
  await mkdir(dir, { recursive: true });
  // Only one live process carries an instance id: a fresh lock under it is an earlier life's.
  if ((await readOwner(dir)) === options.instanceId)
    await rm(lockPathOf(root, slot), { recursive: true, force: true });
  let unlock: () => Promise<void>;
  try {
    unlock = await (
      await loadLockfile()
    ).lock(dir, {
      ...lockOptions(root, slot, options.staleMs),
      onCompromised: options.onLost,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw error;
  }
  await writeFile(join(dir, OWNER_FILE), options.instanceId);
  return { slot, dir, release: () => unlock() };
}

/** Claims the first slot of `order` that can be leased. */
export async function claimSlot(
  root: string,
  order: readonly number[],
  options: LeaseOptions,
): Promise<SlotLease> {
  for (const slot of order) {
    const lease = await leaseSlot(root, slot, options);
    if (lease) return lease;
  }
  // Every candidate was taken between reading and leasing: one past them is new to everyone.
  const next = Math.max(-1, ...order) + 1;
  return claimSlot(root, [next], options);
}

async function readOwner(dir: string): Promise<string | undefined> {
  try {
    return (await readFile(join(dir, OWNER_FILE), 'utf8')).trim() || undefined;
  } catch {
    return undefined;
  }
}
