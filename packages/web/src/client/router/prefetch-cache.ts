/**
 * The browser's prefetch cache: entries by URL, least recently used first out when the byte
 * budget is exceeded, expired entries pruned, and entries dropped by the cache tags a server
 * action revalidated (instead of dropping everything). An instance per router.
 */
import { entryStatus, type EntryStatus, type EntryTimes } from './prefetch-entry.js';
import type { RouterConstants } from './router-constants.js';

/** A cached answer for one URL. */
export interface CacheEntry<Payload> extends EntryTimes {
  readonly url: string;
  /** Settles with the payload (or rejects); the entry is usable only once it has. */
  readonly payload: Promise<Payload>;
  /** Size counted against the budget (grows as the answer streams in). */
  bytes: number;
  /** Cache tags of the data in the answer. */
  tags: readonly string[];
  lastUsedTime: number | null;
}

/** The cache's interface. */
export interface PrefetchCache<Payload> {
  /** The entry for `url` and its status; expired entries are removed and reported as absent. */
  lookup(url: string, now: number): { entry: CacheEntry<Payload>; status: EntryStatus } | undefined;
  /** Stores (or replaces) an entry and evicts least-recently-used ones over the budget. */
  store(entry: CacheEntry<Payload>): void;
  /** Records a navigation's use of the entry. */
  markUsed(url: string, now: number): void;
  /** Re-counts an entry's size (after more of it streamed in). */
  resize(url: string, bytes: number, tags: readonly string[]): void;
  /** Drops entries whose data carries any of `tags`; returns how many. */
  dropTags(tags: readonly string[]): number;
  /** Drops one URL's entry. */
  drop(url: string): void;
  /** Drops entries past their lifetime. */
  prune(now: number): void;
  readonly size: () => number;
  readonly bytes: () => number;
}

/** Creates an empty cache. */
export function createPrefetchCache<Payload>(
  constants: Pick<RouterConstants, 'freshMs' | 'keptMs' | 'cacheBudgetBytes'>,
): PrefetchCache<Payload> {
  // Map iteration order is insertion order: re-inserting on use keeps the oldest use first.
  const entries = new Map<string, CacheEntry<Payload>>();
  let total = 0;

  const remove = (url: string) => {
    const entry = entries.get(url);
    if (!entry) return;
    total -= entry.bytes;
    entries.delete(url);
  };
  const evict = () => {
    for (const url of entries.keys()) {
      if (total <= constants.cacheBudgetBytes || entries.size <= 1) break;
      remove(url);
    }
  };

  return {
    lookup(url, now) {
      const entry = entries.get(url);
      if (!entry) return undefined;
      const status = entryStatus(entry, now, constants);
      if (status === 'expired') {
        remove(url);
        return undefined;
      }
      return { entry, status };
    },
    store(entry) {
      remove(entry.url);
      entries.set(entry.url, entry);
      total += entry.bytes;
      evict();
    },
    markUsed(url, now) {
      const entry = entries.get(url);
      if (!entry) return;
      entry.lastUsedTime = now;
      entries.delete(url);
      entries.set(url, entry);
    },
    resize(url, bytes, tags) {
      const entry = entries.get(url);
      if (!entry) return;
      total += bytes - entry.bytes;
      entry.bytes = bytes;
      entry.tags = tags;
      evict();
    },
    dropTags(tags) {
      const wanted = new Set(tags);
      const doomed = [...entries.values()]
        .filter((entry) => entry.tags.some((tag) => wanted.has(tag)))
        .map((e) => e.url);
      doomed.forEach(remove);
      return doomed.length;
    },
    drop: remove,
    prune(now) {
      for (const [url, entry] of entries)
        if (entryStatus(entry, now, constants) === 'expired') remove(url);
    },
    size: () => entries.size,
    bytes: () => total,
  };
}
