/**
 * Database adapter for a real PostgreSQL through a node-postgres pool. LISTEN uses one
 * dedicated connection so notifications arrive no matter which pool connection committed.
 */
import { escapeIdentifier, Pool, types, type PoolClient } from 'pg';
import type { Database, SqlClient } from './database.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;

function asClient(target: Pool | PoolClient): SqlClient {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      const result = await target.query(text, [...params]);
      return { rows: result.rows as Row[], affectedRows: result.rowCount ?? 0 };
    },
    async exec(script: string) {
      // Without parameters node-postgres uses the simple protocol, which allows several statements.
      await target.query(script);
    },
  };
}

/** Connects a pool; rejects if the first connection fails. */
export async function openPostgresDatabase(url: string, poolSize: number): Promise<Database> {
  const typeParsers = {
    getTypeParser: ((oid: number, format?: string) =>
      oid === INT8_OID || oid === NUMERIC_OID
        ? (value: string) => Number(value)
        : types.getTypeParser(oid, format as 'text')) as typeof types.getTypeParser,
  };
  const pool = new Pool({ connectionString: url, max: poolSize, types: typeParsers });
  // An idle client's error (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const probe = await pool.connect();
  probe.release();

  let listener: PoolClient | undefined;
  const handlers = new Map<string, Set<(payload: string) => void>>();

  return {
    engine: 'postgres',
    ...asClient(pool),
    async transaction(work, options = {}) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        if (options.timeoutMs !== undefined)
          await client.query(
            `SET LOCAL statement_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`,
          );
        const result = await work(asClient(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async listen(channel, onNotify) {
      if (!listener) {
        listener = await pool.connect();
        listener.on('notification', (message) => {
          for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
        });
      }
      const set = handlers.get(channel) ?? new Set();
      if (set.size === 0) await listener.query(`LISTEN ${escapeIdentifier(channel)}`);
      set.add(onNotify);
      handlers.set(channel, set);
      return async () => {
        set.delete(onNotify);
      };
    },
    async close() {
      listener?.release();
      listener = undefined;
      await pool.end();
    },
  };
}
