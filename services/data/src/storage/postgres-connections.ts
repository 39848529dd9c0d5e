/**
 * The node-postgres pool behind the PostgreSQL adapter, and which of its connections are still
 * worth using. When one connection shows that the server behind the address went away or turned
 * read-only (a failover: the old primary stopped or was demoted, and the address now leads to
 * the new one), every connection opened before is suspect: they are closed as they come out of
 * the pool instead of being used, and new ones are opened through the address.
 */
import { Pool, types, type PoolClient } from 'pg';
import { isConnectionFailure, isReadOnlyServer } from './connection-failures.js';

const INT8_OID = 20;
const NUMERIC_OID = 1700;
const CONNECT_TIMEOUT_MS = 2000;

/** The pool, plus the bookkeeping that drops connections to a server that moved. */
export interface PostgresConnections {
  readonly pool: Pool;
  /** A connection opened since the last sign that the server moved. */
  acquire(): Promise<PoolClient>;
  /**
   * Returns a connection; after an `error` it is closed instead (its state is unknown), and a
   * connection failure or a read-only answer also marks every older connection stale.
   */
  release(client: PoolClient, error?: unknown): void;
}

/** Whether `error` says the server behind the address is gone, broken or read-only. */
export function meansServerMoved(error: unknown): boolean {
  return isConnectionFailure(error) || isReadOnlyServer(error);
}

/** Creates the pool (connects lazily). */
export function createPostgresConnections(url: string, poolSize: number): PostgresConnections {
  const pool = new Pool({
    connectionString: url,
    max: poolSize,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === INT8_OID || oid === NUMERIC_OID
          ? (value: string) => Number(value)
          : types.getTypeParser(oid, format as 'text')) as typeof types.getTypeParser,
    },
    // A server that vanished (stopped container, failover) does not refuse connections, it
    // leaves them hanging: give up after CONNECT_TIMEOUT_MS so callers get UNAVAILABLE in time.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // Connections are stamped with the generation they were opened in; a sign that the server
  // moved starts a new generation, and older connections are closed instead of used.
  let generation = 0;
  const openedIn = new WeakMap<PoolClient, number>();
  // node-postgres emits 'error' on a connection the server terminated, also while it is checked
  // out; without a listener that would end the process. The failing call already rejects.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    openedIn.set(client, generation);
    client.on('error', () => undefined);
  });

  return {
    pool,
    async acquire() {
      // Ends: stale connections are finite, and the pool opens fresh ones once they are gone.
      for (;;) {
        const client = await pool.connect();
        if (openedIn.get(client) === generation) return client;
        client.release(true);
      }
    },
    release(client, error) {
      if (error !== undefined && meansServerMoved(error) && openedIn.get(client) === generation)
        generation += 1;
      client.release(error !== undefined);
    },
  };
}
