/**
 * Database adapter for embedded PGlite (PostgreSQL compiled to WASM, one connection).
 * PGlite queues concurrent calls itself, so transactions never interleave.
 */
import { PGlite } from '@electric-sql/pglite';
import { mkdirSync } from 'node:fs';
import type { Database, SqlClient } from './database.js';
import { NUMBER_PARSERS } from './pglite-parsers.js';
import { createPgliteReadPath } from './pglite-read-path.js';

function asClient(target: Pick<PGlite, 'query' | 'exec'>): SqlClient {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const result = await target.query<Row>(text, [...params]);
      return { rows: result.rows, affectedRows: result.affectedRows ?? 0 };
    },
    async exec(script: string) {
      await target.exec(script);
    },
  };
}

/** Opens (and creates if needed) a PGlite database at `dataDir`, or in memory for "memory://". */
export async function openPgliteDatabase(dataDir: string): Promise<Database> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir, { parsers: NUMBER_PARSERS });

  return {
    engine: 'pglite',
    ...asClient(db),
    read: createPgliteReadPath(db),
    transaction: (work) => db.transaction((tx) => work(asClient(tx))),
    async listen(channel, onNotify) {
      const unsubscribe = await db.listen(channel, onNotify);
      return async () => unsubscribe();
    },
    close: () => db.close(),
  };
}
