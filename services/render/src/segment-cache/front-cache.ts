/**
 * The per-replica front of the shared cache: decoded fresh entries in process memory, bounded
 * in bytes (LRU), dropped by tag when any replica invalidates (Redis pub/sub) and wholesale
 * whenever invalidations might have been missed. Serves only fresh entries: anything older goes
 * back to the shared store, where another replica may already have regenerated it.
 */
import { createByteLru } from './byte-lru.js';
import { classifyAge } from './cache-decisions.js';
import type { CachedEntry } from './entry-codec.js';

/** The in-process front cache. */
export interface FrontCache {
  /** A fresh entry, or undefined. */
  get(build: string, key: string, now: number): CachedEntry | undefined;
  /**
   * Keeps an entry read or written at `epoch` (from `epoch()` taken before the store call);
   * ignored if an invalidation arrived since, because the entry may predate it.
   */
  put(build: string, key: string, entry: CachedEntry, bytes: number, epoch: number): void;
  /** Changes on every invalidation and clear. */
  epoch(): number;
  invalidateTags(tags: readonly string[]): void;
  clear(): void;
  bytes(): number;
}

/** Creates an empty front cache of at most `maxBytes`. */
export function createFrontCache(maxBytes: number): FrontCache {
  const byTag = new Map<string, Set<string>>();
  const unindex = (id: string, entry: CachedEntry) => {
    for (const tag of entry.tags) {
      const ids = byTag.get(tag);
      ids?.delete(id);
      if (ids?.size === 0) byTag.delete(tag);
    }
  };
  const entries = createByteLru<CachedEntry>(maxBytes, unindex);
  let epoch = 0;

  const remove = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return;
    entries.delete(id);
    unindex(id, entry);
  };

  return {
    get(build, key, now) {
      const id = `${build}\u0000${key}`;
      const entry = entries.get(id);
      if (!entry) return undefined;
      if (classifyAge(entry.storedAt, now) === 'fresh') return entry;
      remove(id);
      return undefined;
    },
    put(build, key, entry, bytes, at) {
      if (at !== epoch) return;
      const id = `${build}\u0000${key}`;
      remove(id);
      if (!entries.set(id, entry, bytes)) return;
      for (const tag of entry.tags) {
        const ids = byTag.get(tag) ?? new Set<string>();
        ids.add(id);
        byTag.set(tag, ids);
      }
    },
    epoch: () => epoch,
    invalidateTags(tags) {
      epoch += 1;
      for (const tag of tags) for (const id of byTag.get(tag) ?? []) remove(id);
    },
    clear() {
      epoch += 1;
      entries.clear();
      byTag.clear();
    },
    bytes: () => entries.bytes(),
  };
}
