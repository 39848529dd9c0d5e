/**
 * Read queries of the catalogue: categories, filtered keyset pages of items, one item.
 */
import type { Category, Item } from '@strata/proto';
import type { SqlClient } from './database.js';
import { ITEM_COLUMNS, toItem, type ItemRow } from './item-rows.js';

/** A validated ListItems query. */
export interface ItemPageQuery {
  readonly categoryId: string;
  readonly query: string;
  readonly afterId: number;
  readonly pageSize: number;
}

/** Escapes LIKE wildcards so user text matches literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Every category, by id (natural order: cat-2 before cat-10). */
export async function listCategories(db: SqlClient): Promise<Category[]> {
  const { rows } = await db.query<Category>(
    `SELECT id, name FROM categories
     ORDER BY length(id), id`,
  );
  return rows.map((row) => ({ id: row.id, name: row.name }));
}

/** One page (plus one row to learn whether another page follows). */
export async function listItemPage(
  db: SqlClient,
  page: ItemPageQuery,
): Promise<{ items: Item[]; hasMore: boolean }> {
  const conditions = ['id > $1'];
  const params: unknown[] = [page.afterId];
  if (page.categoryId) {
    params.push(page.categoryId);
    conditions.push(`category_id = $${params.length}`);
  }
  if (page.query) {
    params.push(likePattern(page.query));
    conditions.push(`(title ILIKE $${params.length} OR description ILIKE $${params.length})`);
  }
  params.push(page.pageSize + 1);
  const { rows } = await db.query<ItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM items WHERE ${conditions.join(' AND ')}
     ORDER BY id LIMIT $${params.length}`,
    params,
  );
  const hasMore = rows.length > page.pageSize;
  return { items: rows.slice(0, page.pageSize).map(toItem), hasMore };
}

/** One item, or null. */
export async function getItem(db: SqlClient, id: number): Promise<Item | null> {
  const { rows } = await db.query<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM items WHERE id = $1`, [id]);
  return rows[0] ? toItem(rows[0]) : null;
}

/** Whether a category exists. */
export async function categoryExists(db: SqlClient, id: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM categories WHERE id = $1', [id]);
  return rows.length > 0;
}
