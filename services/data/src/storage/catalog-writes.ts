/**
 * Item mutations. Each runs in one transaction that also appends to the change log, so a
 * change is either fully committed (row + change event) or not at all.
 */
import type { Item } from '@strata/proto';
import { itemWriteTags } from '../domain/cache-tags.js';
import type { ItemFields, MutableItemField } from '../domain/validate-item.js';
import { DataError, invalidArgument } from '../errors.js';
import { appendChange, lockForWrite } from './change-log.js';
import type { Database, SqlClient } from './database.js';
import { ITEM_COLUMNS, toItem, type ItemRow } from './item-rows.js';

/** What every mutation returns. */
export interface MutationResult {
  readonly item?: Item;
  readonly tags: string[];
  readonly changeSequence: number;
}

/** Per-call write options. */
export interface WriteOptions {
  readonly timeoutMs?: number;
  readonly changeRetention: number;
}

const COLUMN: Record<MutableItemField, string> = {
  title: 'title',
  price_cents: 'price_cents',
  category_id: 'category_id',
  description: 'description',
};

function valueOf(fields: ItemFields, field: MutableItemField): unknown {
  switch (field) {
    case 'title':
      return fields.title.trim();
    case 'price_cents':
      return fields.priceCents;
    case 'category_id':
      return fields.categoryId;
    case 'description':
      return fields.description;
  }
}

async function requireCategory(tx: SqlClient, categoryId: string): Promise<void> {
  const { rows } = await tx.query('SELECT 1 FROM categories WHERE id = $1', [categoryId]);
  if (rows.length === 0)
    throw invalidArgument([
      {
        field: 'category_id',
        reason: 'NOT_FOUND',
        description: `Category "${categoryId}" does not exist.`,
      },
    ]);
}

async function requireUniqueTitle(
  tx: SqlClient,
  fields: { title: string; categoryId: string },
  exceptId = 0,
) {
  const { rows } = await tx.query<{ id: number }>(
    'SELECT id FROM items WHERE category_id = $1 AND lower(title) = lower($2) AND id <> $3',
    [fields.categoryId, fields.title.trim(), exceptId],
  );
  if (rows[0])
    throw new DataError(
      'DATA_TITLE_TAKEN',
      `Category "${fields.categoryId}" already has an item titled "${fields.title.trim()}" (item ${rows[0].id}).`,
      [
        {
          field: 'title',
          reason: 'ALREADY_EXISTS',
          description: 'This category already has an item with this title.',
        },
      ],
    );
}

async function lockCurrent(tx: SqlClient, id: number, expectedVersion: number): Promise<ItemRow> {
  const { rows } = await tx.query<ItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM items WHERE id = $1 FOR UPDATE`,
    [id],
  );
  const current = rows[0];
  if (!current) throw new DataError('DATA_ITEM_NOT_FOUND', `Item ${id} does not exist.`);
  if (current.version !== expectedVersion)
    throw new DataError(
      'DATA_VERSION_CONFLICT',
      `Item ${id} is at version ${current.version}, not ${expectedVersion}: it changed since you read it. Read it again and retry.`,
    );
  return current;
}

/** Creates an item at version 1. */
export function createItem(
  db: Database,
  fields: ItemFields,
  options: WriteOptions,
): Promise<MutationResult> {
  return db.transaction(async (tx) => {
    await lockForWrite(tx);
    await requireCategory(tx, fields.categoryId);
    await requireUniqueTitle(tx, fields);
    const { rows } = await tx.query<ItemRow>(
      `INSERT INTO items (title, price_cents, category_id, description)
       VALUES ($1, $2, $3, $4) RETURNING ${ITEM_COLUMNS}`,
      [fields.title.trim(), fields.priceCents, fields.categoryId, fields.description],
    );
    const item = toItem(rows[0] as ItemRow);
    const tags = itemWriteTags(item.id, [item.categoryId]);
    const changeSequence = await appendChange(
      tx,
      { kind: 'created', itemId: item.id, tags },
      options.changeRetention,
    );
    return { item, tags, changeSequence };
  }, options);
}

/** Changes the masked fields of an item if it is still at `expectedVersion`. */
export function updateItem(
  db: Database,
  change: {
    id: number;
    expectedVersion: number;
    fields: ItemFields;
    mask: readonly MutableItemField[];
  },
  options: WriteOptions,
): Promise<MutationResult> {
  return db.transaction(async (tx) => {
    await lockForWrite(tx);
    const current = await lockCurrent(tx, change.id, change.expectedVersion);
    const next = {
      title: change.mask.includes('title') ? change.fields.title : current.title,
      categoryId: change.mask.includes('category_id')
        ? change.fields.categoryId
        : current.category_id,
    };
    if (change.mask.includes('category_id')) await requireCategory(tx, next.categoryId);
    if (change.mask.includes('title') || change.mask.includes('category_id'))
      await requireUniqueTitle(tx, next, change.id);
    const params: unknown[] = [change.id];
    const sets = change.mask.map((field) => {
      params.push(valueOf(change.fields, field));
      return `${COLUMN[field]} = $${params.length}`;
    });
    const { rows } = await tx.query<ItemRow>(
      `UPDATE items SET ${[...sets, 'version = version + 1', 'update_time = now()'].join(', ')}
       WHERE id = $1 RETURNING ${ITEM_COLUMNS}`,
      params,
    );
    const item = toItem(rows[0] as ItemRow);
    const tags = itemWriteTags(item.id, [current.category_id, item.categoryId]);
    const changeSequence = await appendChange(
      tx,
      { kind: 'updated', itemId: item.id, tags },
      options.changeRetention,
    );
    return { item, tags, changeSequence };
  }, options);
}

/** Deletes an item if it is still at `expectedVersion`. */
export function deleteItem(
  db: Database,
  target: { id: number; expectedVersion: number },
  options: WriteOptions,
): Promise<MutationResult> {
  return db.transaction(async (tx) => {
    await lockForWrite(tx);
    const current = await lockCurrent(tx, target.id, target.expectedVersion);
    await tx.query('DELETE FROM items WHERE id = $1', [target.id]);
    const tags = itemWriteTags(current.id, [current.category_id]);
    const changeSequence = await appendChange(
      tx,
      { kind: 'deleted', itemId: current.id, tags },
      options.changeRetention,
    );
    return { tags, changeSequence };
  }, options);
}
