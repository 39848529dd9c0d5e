/**
 * The change feed noticing that the log lost a watcher's position — what a failover to a server
 * without the watcher's last change looks like (the server re-used the sequence for another
 * change, or has not reached it) — and sending a RESET, while a log trimmed behind an up-to-date
 * watcher is no reason for one. Runs on embedded PGlite; the lost history is written into the
 * log by hand.
 */
import { ChangeKind } from '@strata/proto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendChange, lockForWrite } from '../storage/change-log.js';
import type { Database } from '../storage/database.js';
import { migrate } from '../storage/migrate.js';
import { openPgliteDatabase } from '../storage/pglite-database.js';
import { startChangeFeed, type ChangeFeed, type FeedEvent } from './change-feed.js';

let db: Database;
let feed: ChangeFeed;
let resets: { cursor: number; newest: number }[];

beforeEach(async () => {
  db = await openPgliteDatabase('memory://');
  await migrate(db);
  resets = [];
  feed = await startChangeFeed(db, { pollIntervalMs: 50, onReset: (reset) => resets.push(reset) });
});
afterEach(async () => {
  await feed.close();
  await db.close();
});

function change(itemId: number, retention = 100): Promise<number> {
  return db.transaction(async (tx) => {
    await lockForWrite(tx);
    return appendChange(tx, { kind: 'created', itemId, tags: [`item:${itemId}`] }, retention);
  });
}

async function watching(): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  await feed.watch(0, (event) => events.push(event));
  return events;
}

describe('change feed after the log lost a position', () => {
  it('sends RESET when the sequence it delivered now names another change', async () => {
    const events = await watching();
    const sequence = await change(1);
    await expect.poll(() => events.map((e) => e.sequence)).toEqual([sequence]);
    await db.exec(`DELETE FROM item_changes WHERE sequence = ${sequence};
      INSERT INTO item_changes (sequence, kind, item_id, tags) OVERRIDING SYSTEM VALUE
      VALUES (${sequence}, 'deleted', 99, '{}')`);
    await expect.poll(() => events.at(-1)?.kind).toBe(ChangeKind.CHANGE_KIND_RESET);
    expect(resets).toEqual([{ cursor: sequence, newest: sequence }]);
    // Delivery carries on after the reset.
    const next = await change(2);
    await expect.poll(() => events.at(-1)?.sequence).toBe(next);
  });

  it('sends RESET when the log has not reached what it delivered', async () => {
    const events = await watching();
    const sequence = await change(1);
    await expect.poll(() => events.length).toBe(1);
    await db.exec('DELETE FROM item_changes');
    await expect.poll(() => events.at(-1)?.kind).toBe(ChangeKind.CHANGE_KIND_RESET);
    expect(resets).toEqual([{ cursor: sequence, newest: 0 }]);
  });

  it('sends no RESET when only changes it already has were trimmed', async () => {
    const events = await watching();
    for (let item = 1; item <= 4; item += 1) {
      const sequence = await change(item, 1);
      await expect.poll(() => events.at(-1)?.sequence).toBe(sequence);
    }
    await new Promise((resolve) => setTimeout(resolve, 200)); // a few polls
    expect(events.map((e) => e.kind)).not.toContain(ChangeKind.CHANGE_KIND_RESET);
    expect(resets).toEqual([]);
  });
});
