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

/** The dedicated LISTEN connection, released to its pool at most once. */
interface ListenConnection {
  readonly client: PoolClient;
  /** Returns it to the pool (`discard`: closes it instead); false when it already was. */
  release(discard: boolean): boolean;
  /** Not released (an error discards it). */
  alive(): boolean;
}

function listenConnection(client: PoolClient): ListenConnection {
  let released = false;
  return {
    client,
    alive: () => !released,
    release(discard) {
      if (released) return false;
      released = true;
      client.release(discard);
      return true;
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

  let listener: ListenConnection | undefined;
  let closed = false;
  const handlers = new Map<string, Set<(payload: string) => void>>();

  async function connectListener(): Promise<ListenConnection> {
    const connection = listenConnection(await pool.connect());
    const { client } = connection;
    client.on('notification', (message) => {
      for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    client.on('error', () => {
      // A server going away can report twice (its FATAL message, then the dropped socket), and
      // may report after close released the connection: only the first report acts.
      if (!connection.release(true)) return;
      if (listener === connection) listener = undefined;
      scheduleRelisten();
    });
    try {
      for (const [channel, set] of handlers)
        if (set.size > 0) await client.query(`LISTEN ${escapeIdentifier(channel)}`);
      // An error event may have discarded it even though its LISTENs went through.
      if (!connection.alive()) throw new Error('the LISTEN connection failed while subscribing');
      return connection;
    } catch (error) {
      connection.release(true); // a no-op when its error event already discarded it
      throw error;
    }
  }

  // One attempt at a time: a connection failing while it subscribes reports through its error
  // event and its rejected LISTEN, and two attempts would leave two connections listening.
  let relistening = false;
  function scheduleRelisten(): void {
    if (closed || relistening) return;
    relistening = true;
    const timer = setTimeout(() => {
      if (closed || listener) {
        relistening = false;
        return;
      }
      connectListener().then(
        (connection) => {
          relistening = false;
          if (closed) connection.release(false);
          else listener = connection;
        },
        () => {
          relistening = false;
          scheduleRelisten();
        },
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
      else if (first) await listener.client.query(`LISTEN ${escapeIdentifier(channel)}`);
      return async () => {
        set.delete(onNotify);
      };
    },
    async close() {
      closed = true;
      listener?.release(false);
      listener = undefined;
      await pool.end();
    },
  };
}
