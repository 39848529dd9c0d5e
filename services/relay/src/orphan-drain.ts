/**
 * On a spool root shared by several replicas, a running relay sends what gone replicas left:
 * twice per `staleMs` it looks for free slots that still hold segments, leases one, opens its spool
 * beside its own and forwards it with a delivery side of its own (no intake: nothing new is
 * appended there), then clears and frees the slot. One slot at a time; on shutdown the drain
 * gets the same deadline as the relay's own spool, and what is left stays in the slot.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RelayConfig } from './config.js';
import { createDelivery, openSpool, type DeliveryParts } from './delivery.js';
import { orphanedSlots } from './spool-slots/slot-choice.js';
import { leaseSlot, readSlots, type LeaseOptions } from './spool-slots/slot-directory.js';
import { clearIfDrained } from './spool-slots/shared-spool.js';

/** What the drain is built from. */
export interface OrphanDrainParts {
  readonly root: string;
  /** This replica's own slot, never drained as an orphan. */
  readonly ownSlot: number;
  readonly lease: LeaseOptions;
  readonly delivery: Omit<DeliveryParts, 'spool' | 'log'>;
  readonly log: FastifyBaseLogger;
}

/** The running drain. */
export interface OrphanDrain {
  /** Stops looking; a drain under way gets up to `timeoutMs` to finish, then its slot is freed. */
  stop(timeoutMs: number): Promise<void>;
}

/** Starts looking for orphaned slots. */
export function startOrphanDrain(config: RelayConfig, parts: OrphanDrainParts): OrphanDrain {
  let stopped = false;
  let current: { close(timeoutMs: number): Promise<void> } | undefined;
  let running: Promise<void> | undefined;
  const log = parts.log;

  async function look(): Promise<void> {
    const slots = await readSlots(parts.root, parts.lease.staleMs);
    for (const slot of orphanedSlots(slots)) {
      if (stopped) return;
      if (slot !== parts.ownSlot) await drainSlot(slot);
    }
  }

  async function drainSlot(slot: number): Promise<void> {
    const lease = await leaseSlot(parts.root, slot, parts.lease);
    if (!lease) return;
    try {
      const { spool, recovery } = await openSpool(config, undefined, lease.dir);
      log.info({ slot, recovered: recovery.recovered }, 'sending what a gone replica left');
      const delivery = createDelivery(config, { ...parts.delivery, spool, log });
      let closed: Promise<void> | undefined;
      current = { close: (timeoutMs) => (closed ??= delivery.close(timeoutMs)) };
      delivery.start();
      // Until everything is sent, or `stop` closes it within the shutdown's deadline.
      await delivery.forwarder.flush(Number.MAX_SAFE_INTEGER);
      await current.close(parts.lease.staleMs);
      if (await clearIfDrained(lease.dir)) log.info({ slot }, 'spool slot drained and freed');
    } finally {
      current = undefined;
      await lease.release();
    }
  }

  const timer = setInterval(() => {
    running ??= look()
      .catch((error: unknown) => log.warn({ err: error }, 'orphaned spool slots: look failed'))
      .finally(() => (running = undefined));
  }, parts.lease.staleMs / 2);
  timer.unref();

  return {
    async stop(timeoutMs) {
      stopped = true;
      clearInterval(timer);
      await current?.close(timeoutMs);
      await running;
    },
  };
}
