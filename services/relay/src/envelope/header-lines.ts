/**
 * What a complete header line means: the envelope header must be a JSON object; an item header
 * must be one with a non-empty `type` and, when present, a whole non-negative `length`. Both are
 * parsed within the JSON nesting bound. Pure.
 */
import { parseBoundedObject } from './bounded-json.js';
import type { EnvelopeError, JsonObject } from './envelope.js';

/** Why a header line is refused (the reader adds the offset). */
export interface LineProblem {
  readonly ok: false;
  readonly code: EnvelopeError['code'];
  readonly message: string;
}

/** A valid item header. */
export interface ItemHeader {
  readonly ok: true;
  readonly type: string;
  readonly header: JsonObject;
  /** The explicit payload length; undefined for an implicit (newline-terminated) payload. */
  readonly declared: number | undefined;
}

/** Reads the envelope header line. */
export function readEnvelopeHeader(
  bytes: Uint8Array,
  maxDepth: number,
): { readonly ok: true; readonly header: JsonObject } | LineProblem {
  const header = parseBoundedObject(bytes, maxDepth);
  if (typeof header !== 'string') return { ok: true, header };
  const message = `the envelope header ${notAnObject(header, maxDepth)}`;
  return { ok: false, code: 'header-not-json', message };
}

/** Reads the header line of item `index`. */
export function readItemHeader(
  bytes: Uint8Array,
  maxDepth: number,
  index: number,
): ItemHeader | LineProblem {
  const header = parseBoundedObject(bytes, maxDepth);
  if (typeof header === 'string') {
    return {
      ok: false,
      code: 'item-header-not-json',
      message: `item ${index} header ${notAnObject(header, maxDepth)}`,
    };
  }
  if (typeof header.type !== 'string' || header.type.length === 0) {
    return { ok: false, code: 'item-type-missing', message: `item ${index} header has no "type"` };
  }
  const declared = header.length;
  if (declared === undefined || declared === null) {
    return { ok: true, type: header.type, header, declared: undefined };
  }
  if (typeof declared !== 'number' || !Number.isSafeInteger(declared) || declared < 0) {
    return { ok: false, code: 'bad-length', message: `item ${index} has an invalid "length"` };
  }
  return { ok: true, type: header.type, header, declared };
}

/** An attacker-chosen name made safe for a message and an HTTP header: short, printable ASCII. */
export function printable(value: string): string {
  const safe = value.replace(/[^\x20-\x7e]/g, '?');
  return safe.length > 40 ? `${safe.slice(0, 40)}...` : safe;
}

function notAnObject(problem: 'invalid' | 'too-deep', maxDepth: number): string {
  return problem === 'too-deep' ? `nests deeper than ${maxDepth} levels` : 'is not a JSON object';
}
