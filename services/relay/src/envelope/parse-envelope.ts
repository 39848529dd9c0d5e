/**
 * Spec-exact, total envelope parser (develop docs "Envelopes"): one JSON header line, then items
 * of header line + payload, explicit `length` in bytes or implicit up to the next `\n`/EOF.
 * Pure: never throws, never decodes payloads as text, allocates only views into the input.
 */
import type { Envelope, EnvelopeError, EnvelopeItem, JsonObject, ParseResult } from './envelope.js';

const NEWLINE = 0x0a;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Bounds the parser enforces beyond the grammar. */
export interface ParseLimits {
  readonly maxItems: number;
}

const DEFAULT_LIMITS: ParseLimits = { maxItems: 1000 };

/** Parses a whole envelope body. */
export function parseEnvelope(
  bytes: Uint8Array,
  limits: ParseLimits = DEFAULT_LIMITS,
): ParseResult {
  if (bytes.length === 0) return fail('empty', 'the body is empty', 0);
  const headerEnd = indexOfNewline(bytes, 0);
  const headerBytes = bytes.subarray(0, headerEnd);
  const header = parseJsonObject(headerBytes);
  if (!header) return fail('header-not-json', 'the envelope header is not a JSON object', 0);

  const items: EnvelopeItem[] = [];
  let pos = headerEnd + 1;
  while (pos < bytes.length) {
    if (items.length >= limits.maxItems) {
      return fail('too-many-items', `more than ${limits.maxItems} items`, pos);
    }
    const lineEnd = indexOfNewline(bytes, pos);
    const itemHeaderBytes = bytes.subarray(pos, lineEnd);
    const itemHeader = parseJsonObject(itemHeaderBytes);
    if (!itemHeader) {
      return fail('item-header-not-json', `item ${items.length} header is not a JSON object`, pos);
    }
    if (typeof itemHeader.type !== 'string' || itemHeader.type.length === 0) {
      return fail('item-type-missing', `item ${items.length} header has no "type"`, pos);
    }
    const payloadStart = Math.min(lineEnd + 1, bytes.length);
    const declared = itemHeader.length;
    let payload: Uint8Array;
    if (declared === undefined || declared === null) {
      // Implicit length: up to the next newline or EOF; a `\r` before it belongs to the payload.
      const payloadEnd = indexOfNewline(bytes, payloadStart);
      payload = bytes.subarray(payloadStart, payloadEnd);
      pos = payloadEnd + 1;
    } else {
      if (typeof declared !== 'number' || !Number.isSafeInteger(declared) || declared < 0) {
        return fail('bad-length', `item ${items.length} has an invalid "length"`, pos);
      }
      if (payloadStart + declared > bytes.length || (lineEnd >= bytes.length && declared > 0)) {
        return fail(
          'truncated-payload',
          `item ${items.length} declares ${declared} bytes but the body ends first`,
          payloadStart,
        );
      }
      payload = bytes.subarray(payloadStart, payloadStart + declared);
      const after = payloadStart + declared;
      if (after < bytes.length && bytes[after] !== NEWLINE) {
        return fail(
          'missing-newline',
          `item ${items.length} payload is not followed by a newline`,
          after,
        );
      }
      pos = after + 1;
    }
    items.push({
      type: itemHeader.type,
      header: itemHeader,
      headerBytes: itemHeaderBytes,
      payload,
    });
  }
  const envelope: Envelope = { header, headerBytes, items };
  return { ok: true, envelope };
}

/** Reads only the envelope header line (for routing before a full parse). */
export function parseEnvelopeHeader(bytes: Uint8Array): JsonObject | null {
  return parseJsonObject(bytes.subarray(0, indexOfNewline(bytes, 0)));
}

function indexOfNewline(bytes: Uint8Array, from: number): number {
  const index = bytes.indexOf(NEWLINE, from);
  return index === -1 ? bytes.length : index;
}

function parseJsonObject(bytes: Uint8Array): JsonObject | null {
  if (bytes.length === 0) return null;
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as JsonObject)
      : null;
  } catch {
    return null;
  }
}

function fail(code: EnvelopeError['code'], message: string, offset: number): ParseResult {
  return { ok: false, error: { code, message, offset } };
}
