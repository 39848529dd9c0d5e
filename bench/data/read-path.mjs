#!/usr/bin/env node
// CPU per catalogue read on PGlite (in this thread, in memory, seeded as the service seeds it):
// PGlite's own query() against Database.read's path (services/data/src/storage/
// pglite-read-path.ts: named statement, one Bind/Describe/Execute/Sync batch, rows read from the
// backend's bytes), alternating in rounds, for the ListItems(100) statements of the basic and
// full views. Both must return equal rows (checked first).
// Knobs: ROUNDS=4 CALLS=2000.  node bench/data/read-path.mjs   (after `npm run build`)
import { isDeepStrictEqual } from 'node:util';
import { median } from '../kit/stats.mjs';
import { openPgliteDatabase } from '../../services/data/dist/storage/pglite-database.js';
import { migrate } from '../../services/data/dist/storage/migrate.js';
import { seedIfEmpty } from '../../services/data/dist/storage/seed.js';
import { BASIC_ITEM_COLUMNS, ITEM_COLUMNS } from '../../services/data/dist/storage/item-rows.js';

const ROUNDS = Number(process.env.ROUNDS ?? 4);
const CALLS = Number(process.env.CALLS ?? 2000);
const db = await openPgliteDatabase('memory://');
await migrate(db);
await seedIfEmpty(db);

const page = (columns) => `SELECT ${columns} FROM items WHERE id > $1 ORDER BY id LIMIT $2`;
const statements = { basic: page(BASIC_ITEM_COLUMNS), full: page(ITEM_COLUMNS) };
const paths = {
  'query()': async (sql) => (await db.query(sql, [0, 101])).rows,
  'read()': (sql) => db.read(sql, [0, 101]),
};
for (const sql of Object.values(statements)) {
  const [a, b] = await Promise.all(Object.values(paths).map((run) => run(sql)));
  if (a.length !== 101 || !isDeepStrictEqual(a, b)) throw new Error('the two paths disagree');
}

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
const results = {};
for (let round = 1; round <= ROUNDS; round++)
  for (const [view, sql] of Object.entries(statements))
    for (const [name, run] of Object.entries(paths)) {
      for (let i = 0; i < 200; i++) await run(sql);
      const start = cpuMicros();
      for (let i = 0; i < CALLS; i++) await run(sql);
      const perCall = (cpuMicros() - start) / CALLS;
      (results[`${view} ${name}`] ??= []).push(perCall);
      console.log(`round ${round} ${view} ${name}: ${perCall.toFixed(0)} µs/call`);
    }

console.log('\n| view | path | CPU µs per ListItems(100) query (median) | per round |');
console.log('|---|---|---:|---|');
for (const [key, values] of Object.entries(results)) {
  const [view, name] = key.split(' ');
  console.log(
    `| ${view} | \`${name}\` | ${median(values).toFixed(0)} | ${values.map((v) => v.toFixed(0)).join(' / ')} |`,
  );
}
await db.close();
