/**
 * The PostgreSQL adapter's LISTEN connection against a real server: when the server ends it
 * (a restart or failover does; pg_terminate_backend stands in), the connection is discarded once,
 * however many errors it reports, and notifications arrive again on a new one.
 */
import { startTestPostgres, type TestPostgres } from '@strata/testing';
import { Client, Pool, type PoolClient } from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from './database.js';
import { openPostgresDatabase } from './postgres-database.js';

let postgres: TestPostgres;
let url: string;
beforeAll(async () => {
  postgres = await startTestPostgres();
  url = await postgres.createDatabase();
});
afterAll(() => postgres?.stop());
afterEach(() => vi.restoreAllMocks());

/**
 * Records every connection the adapter's pool hands out (awaiting `onConnect` before handing it
 * out); answers the latest LISTEN one.
 */
function recordPoolClients(
  onConnect: (client: PoolClient) => Promise<void> | void = () => undefined,
) {
  const clients: PoolClient[] = [];
  const connect = Pool.prototype.connect;
  // The adapter awaits connect() for its own connections; pool.query passes a callback.
  vi.spyOn(Pool.prototype, 'connect').mockImplementation(function (this: Pool, ...args: unknown[]) {
    if (args.length > 0) return (connect as (...rest: unknown[]) => void).apply(this, args);
    return (connect as () => Promise<PoolClient>).call(this).then(async (client) => {
      clients.push(client);
      await onConnect(client);
      return client;
    });
  } as typeof connect);
  return (): PoolClient => {
    const listening = clients.filter((client) => client.listenerCount('notification') > 0);
    expect(listening.length).toBeGreaterThan(0);
    return listening.at(-1)!;
  };
}

/** Ends every backend of the database that is waiting in LISTEN, from another connection. */
async function terminateListeners(): Promise<number> {
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ ended: boolean }>(
      `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`,
    );
    return rows.filter((row) => row.ended).length;
  } finally {
    await admin.end();
  }
}

/** Sends NOTIFYs until one reaches `received` (the listener reconnects in the background). */
async function notifiedAgain(database: Database, received: string[], withinMs: number) {
  const until = Date.now() + withinMs;
  for (let attempt = 0; Date.now() < until; attempt += 1) {
    await database.query(`SELECT pg_notify('changes', $1)`, [`after-${attempt}`]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (received.some((payload) => payload.startsWith('after-'))) return true;
  }
  return false;
}

describe('PostgreSQL LISTEN connection', () => {
  it('is replaced after the server ends it, without a second release', async () => {
    const database = await openPostgresDatabase(url, 2);
    const received: string[] = [];
    try {
      await database.listen('changes', (payload) => received.push(payload));
      await database.query(`SELECT pg_notify('changes', 'before')`);
      await expect.poll(() => received, { timeout: 5000 }).toContain('before');

      expect(await terminateListeners()).toBe(1);
      expect(await notifiedAgain(database, received, 10_000)).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('takes a second error, or one after close, without releasing the connection again', async () => {
    const listenerClient = recordPoolClients();
    const database = await openPostgresDatabase(url, 2);
    const received: string[] = [];
    let closed = false;
    try {
      await database.listen('changes', (payload) => received.push(payload));
      const first = listenerClient();
      // A server going away can report twice: its FATAL message, then the dropped socket.
      expect(() => first.emit('error', new Error('terminating connection'))).not.toThrow();
      expect(() => first.emit('error', new Error('connection ended'))).not.toThrow();
      expect(await notifiedAgain(database, received, 10_000)).toBe(true);
      await database.close();
      closed = true;
      // The server stopping while the pool ends reports on a connection already released.
      const second = listenerClient();
      expect(second).not.toBe(first);
      expect(() => second.emit('error', new Error('terminating connection'))).not.toThrow();
    } finally {
      if (!closed) await database.close();
    }
  });

  it('opens one new connection when the next one fails while subscribing', async () => {
    let replacements = 0;
    const listenerClient = recordPoolClients(async (client) => {
      if (replacements === 0) return;
      // The first replacement reports an error while its LISTEN is under way; both reports
      // (the error and the failed LISTEN) come close together. Each later connection is slow to
      // open, so a second attempt started by the second report would overlap the first.
      if (replacements++ === 1)
        setImmediate(() => client.emit('error', new Error('connection lost while subscribing')));
      else await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const database = await openPostgresDatabase(url, 4);
    const received: string[] = [];
    try {
      await database.listen('changes', (payload) => received.push(payload));
      replacements = 1;
      listenerClient().emit('error', new Error('terminating connection'));
      expect(await notifiedAgain(database, received, 10_000)).toBe(true);
      // Two connections listening would deliver each notification twice.
      await database.query(`SELECT pg_notify('changes', 'once')`);
      await expect.poll(() => received, { timeout: 5000 }).toContain('once');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(received.filter((payload) => payload === 'once')).toHaveLength(1);
    } finally {
      await database.close();
    }
  });
});
