/**
 * Whole-buffer envelope parsing: the incremental reader fed one buffer. Callers that already
 * hold an accepted envelope (the forwarder, tests) use this; ingest streams into the reader.
 * Pure: never throws, never decodes payloads as text, allocates only views into the input.
 */
import { createEnvelopeReader, type ReaderLimits } from './envelope-reader.js';
import type { ItemAdmission } from './item-admission.js';
import type { ParseResult } from './envelope.js';

/** The grammar's own bound (items per envelope); sizes are bounded where bytes are received. */
const DEFAULT_LIMITS: ReaderLimits = {
  maxEnvelopeBytes: Number.MAX_SAFE_INTEGER,
  maxHeaderBytes: Number.MAX_SAFE_INTEGER,
  maxItems: 1000,
  maxJsonDepth: Number.MAX_SAFE_INTEGER,
};

/** Parses a whole envelope body. */
export function parseEnvelope(
  bytes: Uint8Array,
  limits: Partial<ReaderLimits> = {},
  admission?: ItemAdmission,
): ParseResult {
  const reader = createEnvelopeReader({ ...DEFAULT_LIMITS, ...limits }, admission);
  reader.push(bytes);
  const result = reader.finish();
  return result.ok ? { ok: true, envelope: result.envelope } : result;
}
