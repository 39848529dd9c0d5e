/**
 * Serialises envelopes back to bytes. Untouched header lines are written from their original
 * bytes; a payload always carries an explicit `length` when its header had one.
 */
import type { Envelope, EnvelopeItem, JsonObject } from './envelope.js';

const encoder = new TextEncoder();
const NEWLINE = new Uint8Array([0x0a]);

/** Serialises an envelope; no trailing newline, like the SDKs. */
export function serializeEnvelope(envelope: Envelope): Uint8Array {
  const parts: Uint8Array[] = [envelope.headerBytes];
  for (const item of envelope.items) parts.push(NEWLINE, item.headerBytes, NEWLINE, item.payload);
  return concatBytes(parts);
}

/** Builds an item from a header object and payload; sets `length` when the header had one. */
export function createItem(header: JsonObject, payload: Uint8Array): EnvelopeItem {
  const finalHeader = 'length' in header ? { ...header, length: payload.length } : header;
  return {
    type: String(finalHeader.type),
    header: finalHeader,
    headerBytes: encoder.encode(JSON.stringify(finalHeader)),
    payload,
  };
}

/** Replaces an item's payload (and its header's `length`, item_count when given). */
export function replacePayload(
  item: EnvelopeItem,
  payload: Uint8Array,
  headerPatch: JsonObject = {},
): EnvelopeItem {
  return createItem({ ...item.header, ...headerPatch }, payload);
}

/** Builds an envelope from a header object and items. */
export function createEnvelope(header: JsonObject, items: readonly EnvelopeItem[]): Envelope {
  return { header, headerBytes: encoder.encode(JSON.stringify(header)), items };
}

/** Concatenates byte arrays into one. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
