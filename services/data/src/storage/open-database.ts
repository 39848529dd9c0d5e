/**
 * Chooses the database adapter from configuration: PostgreSQL when DATABASE_URL is set,
 * embedded PGlite otherwise. Both get the same migrations.
 */
import type { DataConfig } from '../config.js';
import type { Database } from './database.js';
import { openPgliteDatabase } from './pglite-database.js';
import { openPgliteWorkerDatabase } from './pglite-worker-database.js';
import { openPostgresDatabase } from './postgres-database.js';

/** Opens the configured database. */
export function openDatabase(config: DataConfig): Promise<Database> {
  return config.DATABASE_URL
    ? openPostgresDatabase(config.DATABASE_URL, config.DATABASE_POOL_SIZE)
    : config.PGLITE_WORKER
      ? openPgliteWorkerDatabase(config.DATA_DIR)
      : openPgliteDatabase(config.DATA_DIR);
}

/** The database location for logs, with any password removed. */
export function describeDatabase(config: DataConfig): string {
  if (!config.DATABASE_URL) return `pglite:${config.DATA_DIR}`;
  const url = new URL(config.DATABASE_URL);
  url.password = url.password ? '***' : '';
  return url.toString();
}
