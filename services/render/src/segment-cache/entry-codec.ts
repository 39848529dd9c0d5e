/**
 * Cache entries on the wire: a versioned JSON object with named fields, a size cap on encode and
 * a total decoder (unknown version or shape → null, never an exception). Also decides which
 * loader results may be shared at all. Pure.
 */
import type { LoadedSegment } from '@strata/web/server';

/** Version of the entry format; a decoder meeting another version ignores the entry. */
export const ENTRY_VERSION = 1;

/** What is kept for one segment result: enough to render it and to send its browser record. */
export interface CachedEntry {
  readonly v: typeof ENTRY_VERSION;
  /** The key the loader produced (sent to the browser as is). */
  readonly key: string;
  readonly tags: readonly string[];
  /** The loader's data (an `ok` outcome without deferred values). */
  readonly data: unknown;
  /** When the data was loaded (ms, the cache's clock). */
  readonly storedAt: number;
}

/** Why a result is not stored; closed list, used as a metric label. */
export type UncacheableReason =
  'not-ok' | 'private' | 'deferred' | 'bad-tags' | 'too-large' | 'not-json';

/** Limits of tags an entry may carry (they become Redis keys). */
export const TAG_LIMITS = { maxTags: 64, maxLength: 256 } as const;

const TAG = /^[\x21-\x7e]+$/;

/** Why `segment` must not be shared, or null when it may be. */
export function uncacheableReason(segment: LoadedSegment): UncacheableReason | null {
  if (segment.outcome.status !== 'ok') return 'not-ok';
  if (segment.private) return 'private';
  if (segment.outcome.deferred.length > 0 || segment.deferred.size > 0) return 'deferred';
  if (segment.tags.length > TAG_LIMITS.maxTags) return 'bad-tags';
  for (const tag of segment.tags)
    if (tag.length > TAG_LIMITS.maxLength || !TAG.test(tag)) return 'bad-tags';
  return null;
}

/** Encodes an entry, refusing one whose encoding exceeds `maxBytes` (UTF-8). */
export function encodeEntry(
  entry: Omit<CachedEntry, 'v'>,
  maxBytes: number,
): { ok: true; body: string; bytes: number } | { ok: false; reason: UncacheableReason } {
  let body: string;
  try {
    body = JSON.stringify({ v: ENTRY_VERSION, ...entry });
  } catch {
    return { ok: false, reason: 'not-json' };
  }
  // Every UTF-16 unit is at least one UTF-8 byte: a long string is refused without counting.
  if (body.length > maxBytes) return { ok: false, reason: 'too-large' };
  const bytes = utf8Length(body);
  return bytes > maxBytes ? { ok: false, reason: 'too-large' } : { ok: true, body, bytes };
}

/** Decodes an entry; null for anything that is not a version-1 entry. */
export function decodeEntry(body: string): CachedEntry | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const entry = parsed as Record<string, unknown>;
  if (entry['v'] !== ENTRY_VERSION) return null;
  if (typeof entry['key'] !== 'string' || typeof entry['storedAt'] !== 'number') return null;
  const tags = entry['tags'];
  if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) return null;
  if (!('data' in entry)) return null;
  return {
    v: ENTRY_VERSION,
    key: entry['key'],
    tags: tags as string[],
    data: entry['data'],
    storedAt: entry['storedAt'],
  };
}

/** The loader result a cached entry stands for. */
export function toLoadedSegment(segmentId: string, entry: CachedEntry): LoadedSegment {
  return {
    id: segmentId,
    key: entry.key,
    tags: entry.tags,
    private: false,
    outcome: { status: 'ok', data: entry.data, deferred: [] },
    deferred: new Map(),
  };
}

/** Number of UTF-8 bytes of `text` (lone surrogates count as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
