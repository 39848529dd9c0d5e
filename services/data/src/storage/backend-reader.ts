/**
 * Reads the rows of one extended-protocol exchange (Bind, Describe, Execute, Sync) straight from
 * the PostgreSQL backend's bytes. PGlite's own query() runs every reply through a general
 * message parser and result builder, most of a ListItems query's cost in PGlite
 * (bench/data/RESULTS.md, "The read path"); this walks the bytes once and builds the rows.
 *
 * Values are parsed by the functions PGlite's query() uses with the data service's settings
 * (pglite-parsers.ts), for the column types the data service reads. Any other type is refused
 * by name rather than guessed, so a new column type fails loudly in the contract tests.
 */
import { DatabaseError } from 'pg-protocol';
import { INTEGER_OIDS, READ_PARSERS } from './pglite-parsers.js';

/** The rows of a statement, or the error the backend answered with. */
export type BackendResult<Row> = { rows: Row[] } | { error: DatabaseError };

type ParseText = (text: string) => unknown;

interface Column {
  readonly name: string;
  readonly parse: ParseText;
  /** Integer columns are read from their digits, without a string in between. */
  readonly integer: boolean;
}

// Up to 15 digits a digit-by-digit sum is exact, so it equals Number(text) and parseInt(text).
const MAX_EXACT_DIGITS = 15;

// ErrorResponse field codes → DatabaseError properties (as pg and PGlite name them).
const ERROR_FIELDS: Readonly<Record<string, keyof DatabaseError>> = {
  S: 'severity',
  C: 'code',
  D: 'detail',
  H: 'hint',
  P: 'position',
  p: 'internalPosition',
  q: 'internalQuery',
  W: 'where',
  s: 'schema',
  t: 'table',
  c: 'column',
  d: 'dataType',
  n: 'constraint',
  F: 'file',
  L: 'line',
  R: 'routine',
};

/** Reads every message in `bytes`; throws if they are cut short or hold an unknown type. */
export function readBackendResult<Row>(bytes: Buffer): BackendResult<Row> {
  const rows: Row[] = [];
  let columns: Column[] = [];
  let error: DatabaseError | undefined;
  let pos = 0;
  while (pos < bytes.length) {
    if (pos + 5 > bytes.length) throw new Error('backend reply ends inside a message header');
    const type = bytes[pos]!;
    const end = pos + 1 + bytes.readInt32BE(pos + 1);
    if (end > bytes.length) throw new Error('backend reply ends inside a message');
    const body = pos + 5;
    if (type === 0x44 /* D: DataRow */) rows.push(readDataRow(bytes, body, columns) as Row);
    else if (type === 0x54 /* T: RowDescription */) columns = readRowDescription(bytes, body);
    else if (type === 0x45 /* E: ErrorResponse */) error ??= readError(bytes, body, end);
    pos = end;
  }
  return error ? { error } : { rows };
}

function readCString(bytes: Buffer, pos: number): [string, number] {
  const end = bytes.indexOf(0, pos);
  if (end < 0) throw new Error('backend reply has an unterminated string');
  return [bytes.toString('utf8', pos, end), end + 1];
}

function readRowDescription(bytes: Buffer, pos: number): Column[] {
  const count = bytes.readInt16BE(pos);
  pos += 2;
  const columns: Column[] = [];
  for (let i = 0; i < count; i++) {
    const [name, next] = readCString(bytes, pos);
    const typeOid = bytes.readInt32BE(next + 6);
    const format = bytes.readInt16BE(next + 16);
    pos = next + 18;
    const parse = READ_PARSERS.get(typeOid);
    if (parse === undefined || format !== 0)
      throw new Error(
        `column "${name}" has type OID ${typeOid}, which the fast read path does not parse`,
      );
    columns.push({ name, parse, integer: INTEGER_OIDS.has(typeOid) });
  }
  return columns;
}

function readDataRow(bytes: Buffer, pos: number, columns: readonly Column[]): object {
  const count = bytes.readInt16BE(pos);
  if (count !== columns.length) throw new Error('a data row does not match its row description');
  pos += 2;
  const row: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    const length = bytes.readInt32BE(pos);
    pos += 4;
    const column = columns[i]!;
    if (length < 0) {
      row[column.name] = null;
      continue;
    }
    const integer = column.integer ? readInteger(bytes, pos, pos + length) : undefined;
    row[column.name] = integer ?? column.parse(bytes.toString('utf8', pos, pos + length));
    pos += length;
  }
  return row;
}

/** The integer written in bytes[start, end), or undefined when it is not a short plain one. */
function readInteger(bytes: Buffer, start: number, end: number): number | undefined {
  const negative = bytes[start] === 0x2d; /* - */
  const first = negative ? start + 1 : start;
  if (first === end || end - first > MAX_EXACT_DIGITS) return undefined;
  let value = 0;
  for (let i = first; i < end; i++) {
    const digit = bytes[i]! - 0x30;
    if (digit < 0 || digit > 9) return undefined;
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

function readError(bytes: Buffer, start: number, end: number): DatabaseError {
  let pos = start;
  const fields: Record<string, string> = {};
  while (pos < end && bytes[pos] !== 0) {
    const code = String.fromCharCode(bytes[pos]!);
    const [value, next] = readCString(bytes, pos + 1);
    fields[code] = value;
    pos = next;
  }
  const error = new DatabaseError(fields.M ?? 'database error', end - start + 4, 'error');
  for (const [code, property] of Object.entries(ERROR_FIELDS))
    if (fields[code] !== undefined) Object.assign(error, { [property]: fields[code] });
  return error;
}
