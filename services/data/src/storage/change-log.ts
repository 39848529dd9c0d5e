/**
 * The item_changes table: one row per committed change, read by WatchChanges. Writers hold an
 * advisory lock while they append, so sequence order is commit order and a reader that has
 * seen sequence N has seen every change before it.
 */
import { ChangeKind } from '@strata/proto';
import type { SqlClient } from './database.js';

/** NOTIFY channel announcing new change rows (payload: the sequence). */
export const CHANGE_CHANNEL = 'strata_item_changes';
// Serialises writers: held until commit, so a later sequence never commits before an earlier one.
const WRITER_LOCK = 7_261_001;

/** One committed change. */
export interface ChangeRecord {
  readonly sequence: number;
  readonly kind: ChangeKind;
  readonly itemId: number;
  readonly tags: readonly string[];
  readonly commitTime: Date;
}

type StoredKind = 'created' | 'updated' | 'deleted';

const KIND: Record<StoredKind, ChangeKind> = {
  created: ChangeKind.CHANGE_KIND_CREATED,
  updated: ChangeKind.CHANGE_KIND_UPDATED,
  deleted: ChangeKind.CHANGE_KIND_DELETED,
};

/** Takes the writer lock; call first in every writing transaction. */
export async function lockForWrite(tx: SqlClient): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [WRITER_LOCK]);
}

/** Appends a change, announces it on commit and trims the log to `retention` rows. */
export async function appendChange(
  tx: SqlClient,
  change: { kind: StoredKind; itemId: number; tags: readonly string[] },
  retention: number,
): Promise<number> {
  const { rows } = await tx.query<{ sequence: number }>(
    'INSERT INTO item_changes (kind, item_id, tags) VALUES ($1, $2, $3) RETURNING sequence',
    [change.kind, change.itemId, [...change.tags]],
  );
  const sequence = rows[0]?.sequence;
  if (sequence === undefined) throw new Error('change log insert returned no sequence');
  // NOTIFY is delivered at commit, and not at all on rollback.
  await tx.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, String(sequence)]);
  await tx.query('DELETE FROM item_changes WHERE sequence <= $1', [sequence - retention]);
  return sequence;
}

/**
 * Changes from `sequence` on, oldest first, at most `limit`: the change at `sequence` itself
 * comes first when the log still has it, so a reader can check it is the one it saw.
 */
export async function readChangesFrom(
  db: SqlClient,
  sequence: number,
  limit: number,
): Promise<ChangeRecord[]> {
  const { rows } = await db.query<{
    sequence: number;
    kind: StoredKind;
    item_id: number;
    tags: string[];
    commit_time: Date;
  }>(
    `SELECT sequence, kind, item_id, tags, commit_time FROM item_changes
     WHERE sequence >= $1 ORDER BY sequence LIMIT $2`,
    [sequence, limit],
  );
  return rows.map((row) => ({
    sequence: row.sequence,
    kind: KIND[row.kind],
    itemId: row.item_id,
    tags: row.tags,
    commitTime: row.commit_time,
  }));
}

/** The oldest retained and the newest sequence (0 when the log is empty). */
export async function changeLogBounds(db: SqlClient): Promise<{ oldest: number; newest: number }> {
  const { rows } = await db.query<{ oldest: number | null; newest: number | null }>(
    'SELECT min(sequence) AS oldest, max(sequence) AS newest FROM item_changes',
  );
  return { oldest: rows[0]?.oldest ?? 0, newest: rows[0]?.newest ?? 0 };
}
