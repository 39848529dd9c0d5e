/**
 * The catalogue's reads on PGlite without its result parser: each statement is prepared once
 * under a name, then every call sends Bind, Describe, Execute and Sync as one message batch and
 * reads the backend's bytes with backend-reader.ts, a fraction of what query() costs per page
 * (bench/data/RESULTS.md, "The read path").
 *
 * Reads take PGlite's transaction and query locks, as query() does, so they never run inside a
 * transaction another caller holds open. Only reads come this way: writes, and the NOTIFY a
 * write's commit delivers, stay on query().
 */
import type { PGlite } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import { readBackendResult } from './backend-reader.js';

/** Beyond this many distinct statements, the rest are parsed on every call (unnamed). */
const MAX_PREPARED = 64;

/** What follows every Bind: describe the portal (for column names and types), run it, sync. */
const DESCRIBE_EXECUTE_SYNC = Buffer.concat([
  serialize.describe({ type: 'P' }),
  serialize.execute({}),
  serialize.sync(),
]);

/** Turns a parameter into the text PostgreSQL reads; only the scalar kinds reads use. */
function paramText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  throw new TypeError(
    `a read parameter must be a string, number, bigint or boolean, not ${typeof value}`,
  );
}

/** Runs one batch of frontend messages and returns the backend's reply bytes. */
async function exchange(db: PGlite, message: Buffer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await db.execProtocolRawStream(message, {
    syncToFs: false,
    // The chunk is a view of PGlite's WASM memory, reused by the next write: copy it.
    onRawData: (chunk) => chunks.push(Buffer.from(chunk)),
  });
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** A read function over `db` (a PGlite opened by this process). */
export function createPgliteReadPath(db: PGlite) {
  const prepared = new Map<string, string>();

  /** The statement's name, preparing it first if it is new; '' (unnamed) past MAX_PREPARED. */
  async function statementFor(text: string): Promise<{ name: string; parse: Buffer[] }> {
    const known = prepared.get(text);
    if (known !== undefined) return { name: known, parse: [] };
    if (prepared.size >= MAX_PREPARED) return { name: '', parse: [serialize.parse({ text })] };
    const name = `strata_read_${prepared.size + 1}`;
    const reply = await exchange(
      db,
      Buffer.concat([serialize.parse({ name, text }), serialize.sync()]),
    );
    const result = readBackendResult(reply);
    if ('error' in result) throw result.error;
    prepared.set(text, name);
    return { name, parse: [] };
  }

  return async function read<Row>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    const values = params.map(paramText);
    return db._runExclusiveTransaction(() =>
      db._runExclusiveQuery(async () => {
        const statement = await statementFor(text);
        const message = Buffer.concat([
          ...statement.parse,
          serialize.bind({ statement: statement.name, values }),
          DESCRIBE_EXECUTE_SYNC,
        ]);
        const result = readBackendResult<Row>(await exchange(db, message));
        if ('error' in result) throw result.error;
        return result.rows;
      }),
    );
  };
}
