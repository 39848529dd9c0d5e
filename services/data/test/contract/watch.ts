/**
 * WatchChanges side of the contract: live delivery in commit order, resume by sequence, reset
 * when the requested point is gone, and no event for a failed write.
 */
import { ChangeKind } from '@strata/proto';
import { describe, expect, it } from 'vitest';
import type { ContractContext } from '../catalog-contract.js';
import { expectCallError } from '../harness/catalog-client.js';
import { collectChanges } from '../harness/watch-collector.js';

let counter = 0;
function uniqueTitle(prefix: string): string {
  counter += 1;
  return `${prefix} watch ${process.pid}-${counter}`;
}

/** Registers the WatchChanges tests. */
export function registerWatchContract(get: () => ContractContext): void {
  const create = (title: string, categoryId = 'cat-11') =>
    get().client.createItem({ title, priceCents: 100, categoryId, description: '' });

  describe('WatchChanges', () => {
    it('streams each committed change with its tags, in commit order', async () => {
      const watch = collectChanges(get().client);
      const from = await watch.ready;
      const a = await create(uniqueTitle('A'));
      const b = await get().client.updateItem({
        item: { id: a.item?.id, priceCents: 200 },
        updateMask: ['price_cents'],
        expectedVersion: 1,
      });
      const c = await get().client.deleteItem({ id: a.item?.id ?? 0, expectedVersion: 2 });
      const events = await watch.waitFor(3);
      watch.close();
      expect(events.map((e) => e.sequence)).toEqual([
        a.changeSequence,
        b.changeSequence,
        c.changeSequence,
      ]);
      expect(a.changeSequence).toBeGreaterThan(from);
      expect(events.map((e) => e.kind)).toEqual([
        ChangeKind.CHANGE_KIND_CREATED,
        ChangeKind.CHANGE_KIND_UPDATED,
        ChangeKind.CHANGE_KIND_DELETED,
      ]);
      expect(events[0]?.tags).toEqual(a.tags);
      expect(events[2]?.itemId).toBe(a.item?.id);
      expect(events[0]?.commitTime).toBeInstanceOf(Date);
    });

    it('emits nothing for a write that failed', async () => {
      const taken = uniqueTitle('Taken');
      await create(taken);
      const watch = collectChanges(get().client);
      await watch.ready;
      await expectCallError(create(taken));
      const ok = await create(uniqueTitle('After'));
      const events = await watch.waitFor(1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      watch.close();
      expect(events.map((e) => e.sequence)).toEqual([ok.changeSequence]);
    });

    it('replays the changes after a given sequence to a resuming watcher', async () => {
      const first = await create(uniqueTitle('R1'));
      const second = await create(uniqueTitle('R2'));
      const third = await create(uniqueTitle('R3'));
      const watch = collectChanges(get().client, first.changeSequence);
      expect(await watch.ready).toBe(first.changeSequence);
      const events = await watch.waitFor(2);
      watch.close();
      expect(events.slice(0, 2).map((e) => e.sequence)).toEqual([
        second.changeSequence,
        third.changeSequence,
      ]);
    });

    it('starts with RESET when asked to resume from a point it does not have', async () => {
      const latest = await create(uniqueTitle('Latest'));
      const watch = collectChanges(get().client, latest.changeSequence + 1000);
      const [reset] = await watch.waitFor(1);
      expect(reset?.kind).toBe(ChangeKind.CHANGE_KIND_RESET);
      expect(reset?.tags).toEqual([]);
      const next = await create(uniqueTitle('AfterReset'));
      const events = await watch.waitFor(2);
      watch.close();
      expect(events[1]?.sequence).toBe(next.changeSequence);
    });

    it('delivers to several watchers at once', async () => {
      const watchers = [
        collectChanges(get().client),
        collectChanges(get().client),
        collectChanges(get().client),
      ];
      await Promise.all(watchers.map((w) => w.ready));
      const made = await create(uniqueTitle('Fanout'));
      for (const watch of watchers) {
        const [event] = await watch.waitFor(1);
        expect(event?.sequence).toBe(made.changeSequence);
        watch.close();
      }
    });
  });
}
