import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { openPgliteWorkerDatabase } from './pglite-worker-database.js';

// The worker adapter against a real in-memory PGlite: results, errors and transactions must
// behave as the in-thread adapter's do (the contract suite covers the service on top of it).
describe('PGlite in a worker thread', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPgliteWorkerDatabase('memory://');
    await db.exec(
      `CREATE TABLE t (id int8 PRIMARY KEY, name text UNIQUE NOT NULL, at timestamptz NOT NULL)`,
    );
  });
  afterAll(() => db.close());

  it('returns rows with int8 as numbers and timestamps as Dates', async () => {
    const at = new Date('1969-07-20T20:17:40.123Z');
    const insert = await db.query('INSERT INTO t VALUES ($1, $2, $3)', [1, 'Ünïcode 🚀', at]);
    expect(insert.affectedRows).toBe(1);
    const { rows } = await db.query('SELECT * FROM t WHERE id = $1', [1]);
    expect(rows).toEqual([{ id: 1, name: 'Ünïcode 🚀', at }]);
  });

  it('rejects with the database error code the service maps to gRPC statuses', async () => {
    await expect(
      db.query('INSERT INTO t VALUES (2, $1, now())', ['Ünïcode 🚀']),
    ).rejects.toMatchObject({ code: '23505', message: expect.stringContaining('duplicate key') });
  });

  it('commits a transaction’s statements together and returns its result', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query(`INSERT INTO t VALUES (10, 'a', now())`);
      await tx.query(`INSERT INTO t VALUES (11, 'b', now())`);
      return 'done';
    });
    expect(result).toBe('done');
    const { rows } = await db.query('SELECT count(*)::int8 AS n FROM t WHERE id >= 10');
    expect(rows).toEqual([{ n: 2 }]);
  });

  it('rolls a transaction back when its work throws, and rethrows the error', async () => {
    const failure = new Error('changed my mind');
    await expect(
      db.transaction(async (tx) => {
        await tx.query(`INSERT INTO t VALUES (20, 'c', now())`);
        throw failure;
      }),
    ).rejects.toBe(failure);
    const { rows } = await db.query('SELECT id FROM t WHERE id = 20');
    expect(rows).toEqual([]);
  });

  it('runs other statements only after an open transaction ends (no interleaving)', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query(`INSERT INTO t VALUES (30, 'd', now())`);
      order.push('tx wrote');
      await held;
      await tx.query(`UPDATE t SET name = 'd2' WHERE id = 30`);
      order.push('tx updated');
    });
    // The transaction is open (polled: a loaded machine may not have started it yet).
    await expect.poll(() => order, { timeout: 10_000 }).toEqual(['tx wrote']);
    const outside = db.query('SELECT name FROM t WHERE id = 30').then((result) => {
      order.push('outside read');
      return result.rows;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect(await outside).toEqual([{ name: 'd2' }]);
    expect(order).toEqual(['tx wrote', 'tx updated', 'outside read']);
  });

  it('delivers NOTIFY payloads to listeners until they unsubscribe', async () => {
    const payloads: string[] = [];
    const unsubscribe = await db.listen('changes', (payload) => payloads.push(payload));
    await db.query(`SELECT pg_notify('changes', 'one')`);
    await expect.poll(() => payloads).toEqual(['one']);
    await unsubscribe();
    await db.query(`SELECT pg_notify('changes', 'two')`);
    await db.query('SELECT 1');
    expect(payloads).toEqual(['one']);
  });
});
