/**
 * Seeds the benchmark catalogue into an empty database (first start only). Seeding is the
 * initial state, not a change, so it writes no change-log entries.
 */
import { SEED_TIME, seedCategories, seedItems } from '../domain/seed-catalog.js';
import type { Database } from './database.js';

const SEED_LOCK = 7_261_002;

/** Inserts the seed data if there are no categories yet; resolves to whether it did. */
export async function seedIfEmpty(db: Database): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
    const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM categories');
    if ((rows[0]?.n ?? 0) > 0) return false;
    const categories = seedCategories();
    await tx.query(
      'INSERT INTO categories (id, name) SELECT * FROM unnest($1::text[], $2::text[])',
      [categories.map((c) => c.id), categories.map((c) => c.name)],
    );
    const items = seedItems();
    await tx.query(
      `INSERT INTO items (id, title, price_cents, category_id, description, create_time, update_time)
       SELECT id, title, price, category, description, $6, $6
       FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[])
         AS seed(id, title, price, category, description)`,
      [
        items.map((i) => i.id),
        items.map((i) => i.title),
        items.map((i) => i.priceCents),
        items.map((i) => i.categoryId),
        items.map((i) => i.description),
        SEED_TIME,
      ],
    );
    // Explicit ids bypass the identity sequence; move it past them.
    await tx.query(
      "SELECT setval(pg_get_serial_sequence('items', 'id'), (SELECT max(id) FROM items))",
    );
    return true;
  });
}
