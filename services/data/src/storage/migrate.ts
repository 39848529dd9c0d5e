/**
 * Applies pending migrations under an advisory lock, so replicas starting together migrate once.
 * Refuses to run if an applied migration's SQL was edited afterwards.
 */
import { createHash } from 'node:crypto';
import type { Database } from './database.js';
import { MIGRATIONS, type Migration } from './migrations.js';

// Arbitrary, fixed: identifies "schema migration" among the service's advisory locks.
const MIGRATION_LOCK = 7_261_000;

function checksum(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

/** Applies every pending migration; resolves to the versions applied now. */
export async function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await tx.query<{ version: number; checksum: string }>(
      'SELECT version, checksum FROM schema_migrations',
    );
    const applied = new Map(rows.map((row) => [row.version, row.checksum]));
    const done: number[] = [];
    for (const migration of migrations) {
      const sum = checksum(migration.sql);
      const previous = applied.get(migration.version);
      if (previous !== undefined) {
        if (previous !== sum)
          throw new Error(
            `Migration ${migration.version} (${migration.name}) was edited after it was applied; add a new migration instead.`,
          );
        continue;
      }
      await tx.exec(migration.sql);
      await tx.query(
        'INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)',
        [migration.version, migration.name, sum],
      );
      done.push(migration.version);
    }
    return done;
  });
}
