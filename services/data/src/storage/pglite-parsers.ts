/**
 * How the data service's PGlite turns column text into values: PGlite's own parsers, except
 * int8 and numeric as numbers (both engines return them as JS numbers; see database.ts). Both
 * PGlite adapters open PGlite with these, and the read path (backend-reader.ts) parses with the
 * same functions, so its rows equal query()'s.
 */
import { types } from '@electric-sql/pglite';

type Parser = (text: string) => unknown;

/** Passed to PGlite.create as `parsers`. */
export const NUMBER_PARSERS: Readonly<Record<number, Parser>> = {
  [types.INT8]: (value: string) => Number(value),
  [types.NUMERIC]: (value: string) => Number(value),
};

/** pg_type.oid of `name`, which PGlite has no constant for; query() leaves it a string. */
const NAME_OID = 19;

/** The integer types, whose text the read path may turn into numbers itself. */
export const INTEGER_OIDS: ReadonlySet<number> = new Set([types.INT2, types.INT4, types.INT8]);

/** The column types the data service reads, each with the function query() would parse it by. */
export const READ_PARSERS: ReadonlyMap<number, Parser> = new Map(
  [
    types.BOOL,
    types.INT2,
    types.INT4,
    types.INT8,
    types.OID,
    types.NUMERIC,
    types.FLOAT4,
    types.FLOAT8,
    types.TEXT,
    types.VARCHAR,
    types.BPCHAR,
    types.JSON,
    types.JSONB,
    types.DATE,
    types.TIMESTAMP,
    types.TIMESTAMPTZ,
  ]
    .map((oid): [number, Parser] => [oid, NUMBER_PARSERS[oid] ?? types.parsers[oid]!])
    .concat([[NAME_OID, (text) => text]]),
);
