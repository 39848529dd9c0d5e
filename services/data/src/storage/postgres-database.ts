/**
 * Database adapter for a real PostgreSQL through a node-postgres pool. LISTEN uses one
 * dedicated connection so notifications arrive no matter which pool connection committed.
 * The server going away or moving (restart, failover) never crashes the process: reads that
 * broke on a stale connection are retried on a fresh one, writes fail with connection or
 * read-only errors (mapped to UNAVAILABLE) and never wait past their deadline, connections to a
 * server that moved are discarded (postgres-connections.ts), and the LISTEN connection is
 * re-established in the background.
 */
import { escapeIdentifier, type PoolClient } from 'pg';
import { DataError } from '../errors.js';
import { isConnectionFailure } from './connection-failures.js';
import type { Database, SqlClient } from './database.js';
import { createPostgresConnections, meansServerMoved } from './postgres-connections.js';

const RELISTEN_DELAY_MS = 1000;
// Attempts of a read whose connection broke under it (a pooled connection to a server that has
// since gone): each retry runs on a newly opened connection, so a server that is really down
// ends the retries with a connect failure.
const READ_ATTEMPTS = 3;
// A write is abandoned this long after its deadline (statement_timeout should have ended it
// first; this covers a connection that stopped answering altogether).
const WRITE_GRACE_MS = 1000;
// The longest a write without a deadline may take before it is abandoned.
const WRITE_LIMIT_MS = 30_000;

function asClient(target: PoolClient): SqlClient {
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
  const { pool, acquire, release } = createPostgresConnections(url, poolSize);
  const probe = await pool.connect();
  probe.release();

  /** Runs `use` on a current connection, closing that connection if it fails. */
  async function withConnection<T>(use: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await acquire();
    try {
      const result = await use(client);
      release(client);
      return result;
    } catch (error) {
      release(client, error);
      throw error;
    }
  }

  let listener: ListenConnection | undefined;
  let closed = false;
  const handlers = new Map<string, Set<(payload: string) => void>>();

  async function connectListener(): Promise<ListenConnection> {
    const connection = listenConnection(await acquire());
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
    query: (text, params) => withConnection((client) => asClient(client).query(text, params)),
    exec: (script) => withConnection((client) => asClient(client).exec(script)),
    async read<Row>(text: string, params: readonly unknown[] = []) {
      for (let attempt = 1; ; attempt += 1) {
        // A connect failure ends the read at once: the server is down, not a connection stale.
        const client = await acquire();
        try {
          const rows = (await client.query(text, [...params])).rows as Row[];
          release(client);
          return rows;
        } catch (error) {
          release(client, error);
          if (!isConnectionFailure(error) || attempt >= READ_ATTEMPTS) throw error;
        }
      }
    },
    async transaction(work, options = {}) {
      const client = await acquire();
      const limitMs =
        options.timeoutMs === undefined ? WRITE_LIMIT_MS : options.timeoutMs + WRITE_GRACE_MS;
      let released = false;
      const releaseOnce = (error?: unknown) => {
        if (released) return;
        released = true;
        release(client, error);
      };
      return withTimeLimit(limitMs, releaseOnce, async () => {
        let committing = false;
        try {
          await client.query('BEGIN');
          if (options.timeoutMs !== undefined)
            await client.query(
              `SET LOCAL statement_timeout = ${Math.max(1, Math.floor(options.timeoutMs))}`,
            );
          const result = await work(asClient(client));
          committing = true;
          await client.query('COMMIT');
          releaseOnce();
          return result;
        } catch (error) {
          if (meansServerMoved(error)) releaseOnce(error);
          else
            await client.query('ROLLBACK').then(
              () => releaseOnce(),
              // A connection that could not even roll back is discarded, not returned to the pool.
              (rollbackError: unknown) => releaseOnce(rollbackError),
            );
          if (committing && isConnectionFailure(error)) throw commitOutcomeUnknown(error);
          throw error;
        }
      });
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

/** A write whose connection broke during COMMIT may or may not have been applied. */
function commitOutcomeUnknown(cause: unknown): DataError {
  return new DataError(
    'DATA_UNAVAILABLE',
    'The database connection broke while the write was committing: it may have been applied. Read it back before retrying.',
    [],
    { cause },
  );
}

/**
 * Runs `work`, but answers DATA_UNAVAILABLE after `limitMs` and closes the connection (through
 * `abandon`) if it has not finished: a connection to a server that vanished can stay silent.
 */
async function withTimeLimit<T>(
  limitMs: number,
  abandon: (error: unknown) => void,
  work: () => Promise<T>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DataError(
        'DATA_UNAVAILABLE',
        'The database did not answer in time; the write may or may not have been applied.',
        [],
        { cause: Object.assign(new Error('Connection terminated: no answer'), { code: '08006' }) },
      );
      abandon(error.cause);
      reject(error);
    }, limitMs);
  });
  try {
    return await Promise.race([work(), expired]);
  } finally {
    clearTimeout(timer);
  }
}
