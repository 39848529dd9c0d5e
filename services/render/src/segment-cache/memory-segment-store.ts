/**
 * The in-process SegmentStore (used without REDIS_URL): the same contract as the Redis store,
 * bounded by the bytes of its entries (LRU), with expiry on the injected clock. Every other
 * table (tag invalidations, locks, shapes) is bounded by count and pruned as it grows.
 */
import { createByteLru } from './byte-lru.js';
import { utf8Length } from './entry-codec.js';
import type { LockAttempt, PutResult, SegmentStore } from './segment-store.js';
import { SHAPE_TTL_MS } from './segment-store.js';

/** Settings of the in-process store. */
export interface MemoryStoreOptions {
  /** Budget for entry bodies (plus a small per-entry overhead). */
  readonly maxBytes: number;
  readonly now: () => number;
  /** Most tags whose last invalidation is remembered (oldest forgotten, conservatively). */
  readonly maxRememberedTags?: number;
}

interface StoredEntry {
  readonly body: string;
  readonly tags: readonly string[];
  readonly sequence: number;
  readonly expiresAt: number;
}

// Accounts for the map slots, tag references and object headers of each entry.
const ENTRY_OVERHEAD_BYTES = 256;
const MAX_LOCKS = 10_000;
const MAX_SHAPES = 10_000;
const MAX_BUILDS = 64;

/** Creates an empty in-process store; `bytes()` tells how much of its budget it uses. */
export function createMemorySegmentStore(
  options: MemoryStoreOptions,
): SegmentStore & { bytes(): number } {
  const { now } = options;
  const maxTags = options.maxRememberedTags ?? 100_000;
  const tagIndex = new Map<string, Set<string>>();
  const unindex = (id: string, entry: StoredEntry) => {
    for (const tag of entry.tags) {
      const members = tagIndex.get(tag);
      members?.delete(id);
      if (members?.size === 0) tagIndex.delete(tag);
    }
  };
  const entries = createByteLru<StoredEntry>(options.maxBytes, unindex);
  // Last invalidation sequence per tag, oldest first; forgetting one raises `floor` instead,
  // so a write that might have raced a forgotten invalidation is still refused.
  const invalidatedAt = new Map<string, number>();
  let floor = 0;
  const resetAt = new Map<string, number>();
  const locks = new Map<string, { token: string; expiresAt: number }>();
  const shapes = new Map<string, { members: Set<string>; expiresAt: number }>();
  let sequence = 0;

  const idOf = (build: string, key: string) => `${build}\u0000${key}`;
  const remove = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return false;
    entries.delete(id);
    unindex(id, entry);
    return true;
  };
  const usable = (build: string, entry: StoredEntry) =>
    entry.expiresAt > now() && entry.sequence >= (resetAt.get(build) ?? 0);

  return {
    async get(build, key) {
      const id = idOf(build, key);
      const entry = entries.get(id);
      if (!entry) return null;
      if (usable(build, entry)) return entry.body;
      remove(id);
      return null;
    },
    async put(build, key, body, tags, since, ttlMs): Promise<PutResult> {
      if (since < floor || (resetAt.get(build) ?? 0) > since) return 'refused';
      if (tags.some((tag) => (invalidatedAt.get(tag) ?? 0) > since)) return 'refused';
      const id = idOf(build, key);
      remove(id);
      const entry = { body, tags: [...tags], sequence: since, expiresAt: now() + ttlMs };
      if (!entries.set(id, entry, utf8Length(body) + ENTRY_OVERHEAD_BYTES)) return 'stored';
      for (const tag of entry.tags) {
        const members = tagIndex.get(tag) ?? new Set<string>();
        members.add(id);
        tagIndex.set(tag, members);
      }
      return 'stored';
    },
    async acquire(build, key, token, ttlMs): Promise<LockAttempt> {
      const id = idOf(build, key);
      const held = locks.get(id);
      if (held && held.expiresAt > now()) return { acquired: false, sequence };
      if (locks.size >= MAX_LOCKS) pruneExpired(locks, now());
      if (locks.size >= MAX_LOCKS) return { acquired: false, sequence };
      locks.set(id, { token, expiresAt: now() + ttlMs });
      return { acquired: true, sequence };
    },
    async release(build, key, token) {
      const id = idOf(build, key);
      if (locks.get(id)?.token !== token) return false;
      locks.delete(id);
      return true;
    },
    async sequence() {
      return sequence;
    },
    async invalidateTags(tags) {
      sequence += 1;
      let removed = 0;
      for (const tag of new Set(tags)) {
        for (const id of tagIndex.get(tag) ?? []) if (remove(id)) removed += 1;
        tagIndex.delete(tag);
        invalidatedAt.delete(tag);
        invalidatedAt.set(tag, sequence);
      }
      for (const [tag, at] of invalidatedAt) {
        if (invalidatedAt.size <= maxTags) break;
        invalidatedAt.delete(tag);
        floor = Math.max(floor, at);
      }
      return removed;
    },
    async dropBuild(build) {
      sequence += 1;
      resetAt.delete(build);
      resetAt.set(build, sequence);
      for (const [old] of resetAt) {
        if (resetAt.size <= MAX_BUILDS) break;
        resetAt.delete(old);
        floor = Math.max(floor, sequence);
      }
      const prefix = `${build}\u0000`;
      for (const id of entries.keys()) if (id.startsWith(prefix)) remove(id);
    },
    async readShape(build, segmentId) {
      const shape = shapes.get(idOf(build, segmentId));
      if (!shape || shape.expiresAt <= now()) return [];
      return [...shape.members];
    },
    async addToShape(build, segmentId, members) {
      const id = idOf(build, segmentId);
      const known = shapes.get(id);
      const set = known && known.expiresAt > now() ? known.members : new Set<string>();
      for (const member of members) set.add(member);
      shapes.delete(id);
      shapes.set(id, { members: set, expiresAt: now() + SHAPE_TTL_MS });
      for (const [oldest] of shapes) {
        if (shapes.size <= MAX_SHAPES) break;
        shapes.delete(oldest);
      }
    },
    bytes: () => entries.bytes(),
    async close() {
      entries.clear();
      tagIndex.clear();
    },
  };
}

function pruneExpired(locks: Map<string, { expiresAt: number }>, now: number): void {
  for (const [id, lock] of locks) if (lock.expiresAt <= now) locks.delete(id);
}
