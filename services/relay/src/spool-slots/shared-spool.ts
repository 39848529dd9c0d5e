/**
 * A spool root shared by several replicas: claiming this replica's slot at start (and moving in
 * what a single relay left at the root before the volume was shared), and clearing a slot once
 * nothing in it is pending, so a slot with segment files is one with work left.
 */
import { readdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isSegmentFileName } from '../spool/spool-fs.js';
import { recoverSegments } from '../spool/spool-recovery.js';
import { slotClaimOrder } from './slot-choice.js';
import {
  claimSlot,
  loadLockfile,
  readSlots,
  type LeaseOptions,
  type SlotLease,
} from './slot-directory.js';

/** Leases the best slot under `root` for this instance (slot-choice.ts). */
export async function claimSpoolSlot(root: string, options: LeaseOptions): Promise<SlotLease> {
  const slots = await readSlots(root, options.staleMs);
  const lease = await claimSlot(root, slotClaimOrder(slots, options.instanceId), options);
  await adoptRootSegments(root, lease.dir, options.staleMs);
  return lease;
}

/**
 * Segments at the root were written by a relay that had the volume to itself: moved, all of
 * them, into this replica's slot if that holds none (their numbers then stay in order), under a
 * lock so two replicas starting together never split them.
 */
async function adoptRootSegments(root: string, slotDir: string, staleMs: number): Promise<void> {
  if (!(await readdir(root)).some(isSegmentFileName)) return;
  if ((await readdir(slotDir)).some(isSegmentFileName)) return;
  let unlock: () => Promise<void>;
  try {
    unlock = await (
      await loadLockfile()
    ).lock(root, {
      stale: staleMs,
      realpath: false,
      lockfilePath: join(root, 'root-segments.lock'),
    });
  } catch {
    return; // Another replica is moving them.
  }
  try {
    for (const name of (await readdir(root)).filter(isSegmentFileName))
      await rename(join(root, name), join(slotDir, name));
  } finally {
    await unlock();
  }
}

/**
 * Deletes a closed spool's segment files if none of their envelopes is pending (every one has
 * its tombstone); resolves whether it did. Only while holding the slot's lease.
 */
export async function clearIfDrained(dir: string): Promise<boolean> {
  const recovery = await recoverSegments(dir);
  if (recovery.pending.length > 0) return false;
  for (const name of (await readdir(dir)).filter(isSegmentFileName)) await unlink(join(dir, name));
  return true;
}
