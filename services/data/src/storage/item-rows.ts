/**
 * How an items row maps to the Item message, and the SQL that selects one.
 */
import type { Item } from '@strata/proto';

/** The columns every item query selects, in Item's order. */
export const ITEM_COLUMNS =
  'id, title, price_cents, category_id, description, create_time, update_time, version';

/** The columns a basic list selects (ItemView BASIC), in Item's order. */
export const BASIC_ITEM_COLUMNS = 'id, title, price_cents, description';

/** An items row as both engines return it (int8 parsed to number). */
export interface ItemRow {
  id: number;
  title: string;
  price_cents: number;
  category_id: string;
  description: string;
  create_time: Date;
  update_time: Date;
  version: number;
}

/** Converts a row to the wire message shape. */
export function toItem(row: ItemRow): Item {
  return {
    id: row.id,
    title: row.title,
    priceCents: row.price_cents,
    categoryId: row.category_id,
    description: row.description,
    createTime: row.create_time,
    updateTime: row.update_time,
    version: row.version,
  };
}

/** The row of a basic list (BASIC_ITEM_COLUMNS). */
export type BasicItemRow = Pick<ItemRow, 'id' | 'title' | 'price_cents' | 'description'>;

/** Converts a basic row to an Item whose other fields are at their proto3 defaults. */
export function toBasicItem(row: BasicItemRow): Item {
  return {
    id: row.id,
    title: row.title,
    priceCents: row.price_cents,
    categoryId: '',
    description: row.description,
    createTime: undefined,
    updateTime: undefined,
    version: 0,
  };
}
