import * as fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { openPgliteDatabase } from './pglite-database.js';
import { openPgliteWorkerDatabase } from './pglite-worker-database.js';

// Database.read on PGlite reads the backend's bytes itself (backend-reader.ts). Whatever it
// reads must equal what PGlite's own query() returns, on both PGlite adapters.
describe.each([
  ['in-thread', openPgliteDatabase],
  ['worker', openPgliteWorkerDatabase],
])('PGlite read path (%s)', (_name, open) => {
  let db: Database;
  beforeAll(async () => {
    db = await open('memory://');
    await db.exec(`CREATE TABLE kinds (
      id int8 PRIMARY KEY, flag bool, small int2, medium int4, price numeric, ratio float8,
      label text, code varchar(8), fixed char(3), at timestamptz, local timestamp, day date,
      doc json, docb jsonb)`);
    await db.exec(`CREATE TABLE texts (id int8 PRIMARY KEY, body text NOT NULL)`);
  });
  afterAll(() => db.close());

  it('returns the rows query() returns, for every column type the service reads', async () => {
    await db.query(
      `INSERT INTO kinds VALUES
        (1, true, -3, 2147483647, 12.50, 0.25, 'Ünïcode 🚀 "<x>"', 'ab', 'x',
         '2026-11-22T10:00:00.123Z', '2026-11-22 10:00:00', '2026-11-22',
         '{"a":[1,"b"]}', '{"z": null}'),
        (2, false, 0, 0, 0, -1.5e300, '', '', '', 'infinity', '-infinity', '1969-07-20',
         'null', '[]'),
        (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
        (9007199254740991, true, 1, 1, 1, 1, 'max', 'm', 'm', now(), now(), now(), '1', '2')`,
    );
    const sql = 'SELECT * FROM kinds WHERE id >= $1 ORDER BY id';
    const expected = (await db.query(sql, [0])).rows;
    expect(expected).toHaveLength(4);
    expect(await db.read(sql, [0])).toEqual(expected);
    // A second call reuses the prepared statement and must read the same.
    expect(await db.read(sql, ['0'])).toEqual(expected);
  });

  it('matches query() on arbitrary text and numbers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.record({
            id: fc.integer({ min: 1, max: 1_000_000 }),
            body: fc.string({ unit: 'binary', maxLength: 300 }).map((s) => s.replace(/\0/g, '')),
          }),
          { selector: (row) => row.id, maxLength: 40 },
        ),
        async (rows) => {
          await db.query('DELETE FROM texts');
          for (const row of rows)
            await db.query('INSERT INTO texts VALUES ($1, $2)', [row.id, row.body]);
          const sql = 'SELECT id, body, length(body) AS n FROM texts ORDER BY id';
          expect(await db.read(sql)).toEqual((await db.query(sql)).rows);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('reads integers of every width as query() does, signs and the int8 extremes included', async () => {
    const int8Edges = [
      '-9223372036854775808',
      '9223372036854775807',
      '999999999999999',
      '1000000000000000',
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -32768, max: 32767 }),
        fc.integer({ min: -2147483648, max: 2147483647 }),
        fc.oneof(
          fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String),
          fc.constantFrom(...int8Edges),
        ),
        async (small, medium, big) => {
          const sql = 'SELECT $1::int2 AS small, $2::int4 AS medium, $3::int8 AS big';
          const params = [small, medium, big];
          expect(await db.read(sql, params)).toEqual((await db.query(sql, params)).rows);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rejects with the database error, and the next read still works', async () => {
    await expect(db.read('SELECT missing FROM kinds')).rejects.toMatchObject({
      code: '42703',
      message: 'column "missing" does not exist',
    });
    await expect(db.read('SELECT 1 / $1::int AS q', [0])).rejects.toMatchObject({
      code: '22012',
      severity: 'ERROR',
    });
    expect(await db.read('SELECT 1 / $1::int AS q', [1])).toEqual([{ q: 1 }]);
  });

  it('names the column when its type is one the read path does not parse', async () => {
    await expect(db.read(`SELECT gen_random_uuid() AS token`)).rejects.toThrow(
      /column "token" has type OID 2950/,
    );
  });

  it('refuses parameters that are not scalars', async () => {
    await expect(db.read('SELECT $1::int8[] AS ids', [[1, 2]])).rejects.toThrow(
      /must be a string, number, bigint or boolean/,
    );
  });

  it('keeps working past the number of statements it prepares', async () => {
    for (let i = 0; i < 70; i++)
      expect(await db.read(`SELECT $1::int4 + ${i} AS n`, [1])).toEqual([{ n: 1 + i }]);
  });

  it('waits for an open transaction and never sees its uncommitted rows', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let wrote = false;
    const transaction = db.transaction(async (tx) => {
      await tx.query(`INSERT INTO texts VALUES (-1, 'uncommitted')`);
      wrote = true;
      await held;
      await tx.query(`UPDATE texts SET body = 'committed' WHERE id = -1`);
    });
    // The transaction is open (polled: a loaded machine may not have started it yet).
    await expect.poll(() => wrote, { timeout: 10_000 }).toBe(true);
    const outside = db.read('SELECT body FROM texts WHERE id = -1');
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect(await outside).toEqual([{ body: 'committed' }]);
  });

  it('leaves NOTIFY delivery to listeners intact', async () => {
    const payloads: string[] = [];
    const unsubscribe = await db.listen('read_path', (payload) => payloads.push(payload));
    await db.transaction(async (tx) => {
      await tx.query(`SELECT pg_notify('read_path', 'in a transaction')`);
    });
    await db.read('SELECT 1 AS one');
    await db.query(`SELECT pg_notify('read_path', 'autocommit')`);
    await db.read('SELECT 1 AS one');
    await expect.poll(() => payloads).toEqual(['in a transaction', 'autocommit']);
    await unsubscribe();
  });
});
