/**
 * Read queries of the catalogue: categories, filtered keyset pages of items, one item. They go
 * through Database.read, which on PGlite skips its general result parser (pglite-read-path.ts).
 */
import type { Category, Item } from '@strata/proto';
import type { Reader, SqlClient } from './database.js';
import type { ListedFields } from '../domain/item-view.js';
import {
  BASIC_ITEM_COLUMNS,
  ITEM_COLUMNS,
  toBasicItem,
  toItem,
  type BasicItemRow,
  type ItemRow,
} from './item-rows.js';

/** A validated ListItems query. */
export interface ItemPageQuery {
  readonly categoryId: string;
  readonly query: string;
  readonly afterId: number;
  readonly pageSize: number;
  /** Basic lists read only the four columns they return. */
  readonly fields: ListedFields;
}

/** Escapes LIKE wildcards so user text matches literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Every category, by id (natural order: cat-2 before cat-10). */
export async function listCategories(db: Reader): Promise<Category[]> {
  const rows = await db.read<Category>(
    `SELECT id, name FROM categories
     ORDER BY length(id), id`,
  );
  return rows.map((row) => ({ id: row.id, name: row.name }));
}

/** One page (plus one row to learn whether another page follows). */
export async function listItemPage(
  db: Reader,
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
  const sql = (columns: string) =>
    `SELECT ${columns} FROM items WHERE ${conditions.join(' AND ')}
     ORDER BY id LIMIT $${params.length}`;
  if (page.fields === 'basic') {
    const rows = await db.read<BasicItemRow>(sql(BASIC_ITEM_COLUMNS), params);
    return pageOf(rows, page.pageSize, toBasicItem);
  }
  const rows = await db.read<ItemRow>(sql(ITEM_COLUMNS), params);
  return pageOf(rows, page.pageSize, toItem);
}

/** The first pageSize rows as items, and whether the extra row said another page follows. */
function pageOf<Row>(
  rows: Row[],
  pageSize: number,
  toMessage: (row: Row) => Item,
): { items: Item[]; hasMore: boolean } {
  return { items: rows.slice(0, pageSize).map(toMessage), hasMore: rows.length > pageSize };
}

/** One item, or null. */
export async function getItem(db: Reader, id: number): Promise<Item | null> {
  const rows = await db.read<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM items WHERE id = $1`, [id]);
  return rows[0] ? toItem(rows[0]) : null;
}

/** Whether a category exists. */
export async function categoryExists(db: SqlClient, id: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM categories WHERE id = $1', [id]);
  return rows.length > 0;
}
