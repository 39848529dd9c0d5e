/**
 * Database adapter for a real PostgreSQL through a node-postgres pool. LISTEN uses one
 * dedicated connection so notifications arrive no matter which pool connection committed.
 * The server going away (restart, failover) never crashes the process: calls fail with
 * connection errors (mapped to UNAVAILABLE), broken connections are discarded, and the LISTEN
 * connection is re-established in the background.
 */
import { escapeIdentifier, Pool, types, type PoolClient } from 'pg';
import type { Database, SqlClient } from './database.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;
const RELISTEN_DELAY_MS = 1000;
const CONNECT_TIMEOUT_MS = 2000;

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
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    types: typeParsers,
    // A server that vanished (stopped container, failover) does not refuse connections, it
    // leaves them hanging: give up after CONNECT_TIMEOUT_MS so callers get UNAVAILABLE in time.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // node-postgres emits 'error' on a connection the server terminated, also while it is checked
  // out; without a listener that would end the process. The failing call already rejects.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const probe = await pool.connect();
  probe.release();

  let listener: PoolClient | undefined;
  let closed = false;
  const handlers = new Map<string, Set<(payload: string) => void>>();

  async function connectListener(): Promise<PoolClient> {
    const client = await pool.connect();
    client.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    client.on('error', () => {
      // Drop the broken connection and subscribe again once the server is back.
      if (listener === client) listener = undefined;
      client.release(true);
      scheduleRelisten();
    });
    for (const [channel, set] of handlers)
      if (set.size > 0) await client.query(`LISTEN ${escapeIdentifier(channel)}`);
    return client;
  }

  function scheduleRelisten(): void {
    if (closed) return;
    const timer = setTimeout(() => {
      if (closed || listener) return;
      connectListener().then(
        (client) => {
          if (closed) client.release();
          else listener = client;
        },
        () => scheduleRelisten(),
      );
    }, RELISTEN_DELAY_MS);
    timer.unref();
  }

  return {
    engine: 'postgres',
    ...asClient(pool),
    async read<Row>(text: string, params: readonly unknown[] = []) {
      return (await pool.query(text, [...params])).rows as Row[];
    },
    async transaction(work, options = {}) {
      const client = await pool.connect();
      let broken: unknown;
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
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        // A connection that could not even roll back is discarded, not returned to the pool.
        client.release(broken !== undefined);
      }
    },
    async listen(channel, onNotify) {
      const set = handlers.get(channel) ?? new Set();
      handlers.set(channel, set);
      const first = set.size === 0;
      set.add(onNotify);
      if (!listener) listener = await connectListener();
      else if (first) await listener.query(`LISTEN ${escapeIdentifier(channel)}`);
      return async () => {
        set.delete(onNotify);
      };
    },
    async close() {
      closed = true;
      listener?.release();
      listener = undefined;
      await pool.end();
    },
  };
}
