/**
 * The store calls a lookup makes, made so they cannot fail the request: a failure (already
 * counted and logged by the guarded store) becomes UNAVAILABLE, and the lookup falls back to
 * running the loader.
 */
import type { LoadedSegment } from '@strata/web/server';
import { classifyAge } from './cache-decisions.js';
import type { CacheEvents } from './cache-metrics.js';
import { decodeEntry, type CachedEntry } from './entry-codec.js';
import type { SegmentStore } from './segment-store.js';

/** A store call failed. */
export const UNAVAILABLE = Symbol('unavailable');
export type Unavailable = typeof UNAVAILABLE;

/** The result of `run`, or UNAVAILABLE if it rejected. */
export async function orUnavailable<T>(run: () => Promise<T>): Promise<T | Unavailable> {
  try {
    return await run();
  } catch {
    return UNAVAILABLE;
  }
}

/** The entry under `key` unless it is missing or expired (or UNAVAILABLE). */
export async function readUsableEntry(
  store: SegmentStore,
  build: string,
  key: string,
  now: () => number,
): Promise<CachedEntry | null | Unavailable> {
  const body = await orUnavailable(() => store.get(build, key));
  if (body === UNAVAILABLE || body === null) return body;
  const entry = decodeEntry(body);
  return entry && classifyAge(entry.storedAt, now()) !== 'expired' ? entry : null;
}

/** Gives the key's lock back; only the owner's token deletes it. */
export function releaseLock(store: SegmentStore, build: string, key: string, token: string): void {
  // If this fails, the lock expires by itself.
  void orUnavailable(() => store.release(build, key, token));
}

/** Skips the cache because the store is unavailable. */
export function loadUncached(
  events: CacheEvents,
  load: () => Promise<LoadedSegment>,
): Promise<LoadedSegment> {
  events.bypass('unavailable');
  return load();
}
