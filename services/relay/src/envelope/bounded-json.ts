/**
 * JSON within a nesting bound. `JSON.parse` itself copes with any nesting (its memory follows
 * the byte length, which callers bound first), but `JSON.stringify` recurses: so header lines
 * are parsed only within the bound, and a payload is checked against it before the relay
 * re-serialises it. A linear scan does the check without building anything (Relay refuses the
 * same way: serde_json stops at 128 levels). Pure.
 */
import type { JsonObject } from './envelope.js';

const decoder = new TextDecoder('utf-8', { fatal: true });
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** Outcome of a bounded parse. */
export type BoundedJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: 'invalid' | 'too-deep' };

/** Whether arrays and objects in the JSON text nest at most `maxDepth` levels deep. */
export function nestingWithin(bytes: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index]!;
    if (byte === QUOTE) {
      index = closingQuote(bytes, index + 1);
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      depth += 1;
      if (depth > maxDepth) return false;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth -= 1;
    }
  }
  return true;
}

/** The index of the quote that ends the string starting at `from` (the end when unterminated). */
function closingQuote(bytes: Uint8Array, from: number): number {
  // Strings are most of a JSON text: skip them natively rather than byte by byte.
  let quote = bytes.indexOf(QUOTE, from);
  while (quote !== -1) {
    let backslashes = 0;
    while (quote - backslashes - 1 >= from && bytes[quote - backslashes - 1] === BACKSLASH) {
      backslashes += 1;
    }
    if (backslashes % 2 === 0) return quote;
    quote = bytes.indexOf(QUOTE, quote + 1);
  }
  return bytes.length;
}

/** Parses UTF-8 JSON text (any nesting: check it before re-serialising what comes out). */
export function parseJson(bytes: Uint8Array): BoundedJson {
  try {
    return { ok: true, value: JSON.parse(decoder.decode(bytes)) as unknown };
  } catch {
    return { ok: false, problem: 'invalid' };
  }
}

/** Parses UTF-8 JSON text whose nesting stays within `maxDepth`. */
export function parseBoundedJson(bytes: Uint8Array, maxDepth: number): BoundedJson {
  if (!nestingWithin(bytes, maxDepth)) return { ok: false, problem: 'too-deep' };
  return parseJson(bytes);
}

/** A JSON object (not an array or scalar) within `maxDepth`, else why not. */
export function parseBoundedObject(
  bytes: Uint8Array,
  maxDepth: number,
): JsonObject | 'invalid' | 'too-deep' {
  const parsed = parseBoundedJson(bytes, maxDepth);
  if (!parsed.ok) return parsed.problem;
  const { value } = parsed;
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as JsonObject)
    : 'invalid';
}
