/**
 * Lists of like records, written with their keys once: the hydration data inlined in documents
 * is mostly lists of objects with the same keys, and the keys repeated in every record are a
 * large share of its bytes. `packRows` turns every array of two or more plain objects with the same
 * keys, in the same order and with no undefined value, into
 * `[ROWS, keys, ...values row by row]`; anything else is kept as it is. An array of the caller's
 * own that starts with one of the two marker strings is wrapped as `[LITERAL, ...items]`, so
 * `unpackRows(JSON.parse(JSON.stringify(packRows(v))))` is always `v`'s JSON value.
 *
 * Hand-written rather than a library: it runs on every document (measured in bench/render) and
 * must stay a plain JSON value that `jsonForScript` escapes.
 */

/** First element of a packed list. */
export const ROWS = '\u0000rows';
/** First element of a caller's array that happened to start with a marker. */
export const LITERAL = '\u0000literal';

/** `value` with its lists of like records packed. */
export function packRows(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return packArray(value);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, packRows(item)]));
}

/** The value `packRows` was given (after a JSON round trip). */
export function unpackRows(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    if (value[0] === ROWS) return unpackTable(value);
    if (value[0] === LITERAL) return value.slice(1).map(unpackRows);
    return value.map(unpackRows);
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, unpackRows(item)]));
}

function packArray(list: readonly unknown[]): unknown[] {
  const keys = list.length >= 2 ? sharedKeys(list) : undefined;
  if (!keys) {
    const items = list.map(packRows);
    return list[0] === ROWS || list[0] === LITERAL ? [LITERAL, ...items] : items;
  }
  const packed: unknown[] = [ROWS, keys];
  for (const row of list as Record<string, unknown>[])
    for (const key of keys) packed.push(packRows(row[key]));
  return packed;
}

/** The keys every element has, in the same order, or undefined when they are not like records. */
function sharedKeys(list: readonly unknown[]): string[] | undefined {
  const first = list[0];
  if (!isPlainObject(first)) return undefined;
  const keys = Object.keys(first);
  if (keys.length === 0) return undefined;
  for (const row of list) {
    if (!isPlainObject(row)) return undefined;
    let index = 0;
    for (const key in row) {
      if (key !== keys[index] || !survivesInRow(row[key])) return undefined;
      index++;
    }
    if (index !== keys.length) return undefined;
  }
  return keys;
}

/** JSON drops these from objects but writes null for them in arrays. */
function survivesInRow(value: unknown): boolean {
  return value !== undefined && typeof value !== 'function' && typeof value !== 'symbol';
}

function unpackTable(packed: readonly unknown[]): Record<string, unknown>[] {
  const keys = packed[1] as string[];
  const rows: Record<string, unknown>[] = [];
  for (let at = 2; at < packed.length; at += keys.length)
    rows.push(
      Object.fromEntries(keys.map((key, offset) => [key, unpackRows(packed[at + offset])])),
    );
  return rows;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
