/**
 * The contract both segment stores keep (Redis for replicas, in-process without REDIS_URL):
 * entries with expiry and tag sets, atomic invalidation by tag, a per-key regeneration lock
 * owned by a token, an invalidation sequence that refuses writes of data loaded before an
 * invalidation of its tags, and the learned shapes of segments. Types only.
 */
import type { ShapeMember } from './segment-shape.js';

/** A lock attempt: whether it was taken, and the invalidation sequence at that moment. */
export interface LockAttempt {
  readonly acquired: boolean;
  /** Pass to `put`: a write is refused if one of its tags was invalidated after this. */
  readonly sequence: number;
}

/** What `put` did. */
export type PutResult = 'stored' | 'refused';

/** The shared store of segment entries. Every method may reject when the backend fails. */
export interface SegmentStore {
  /** The encoded entry under `key` of `build`, or null (missing, expired or invalidated). */
  get(build: string, key: string): Promise<string | null>;
  /**
   * Stores `body` for `ttlMs` and records it under each tag, unless one of `tags` (or the whole
   * build) was invalidated after `sequence`: then nothing is written and 'refused' returned.
   */
  put(
    build: string,
    key: string,
    body: string,
    tags: readonly string[],
    sequence: number,
    ttlMs: number,
  ): Promise<PutResult>;
  /** Takes the regeneration lock of `key` for `ttlMs` with `token` if nobody holds it. */
  acquire(build: string, key: string, token: string, ttlMs: number): Promise<LockAttempt>;
  /** Releases the lock only if `token` still owns it; true when it did. */
  release(build: string, key: string, token: string): Promise<boolean>;
  /** The current invalidation sequence (for loads that run without the lock). */
  sequence(): Promise<number>;
  /** Removes every entry (of any build) carrying one of `tags`, atomically; returns how many. */
  invalidateTags(tags: readonly string[]): Promise<number>;
  /** Makes every entry of `build` unusable at once, then frees them. */
  dropBuild(build: string): Promise<void>;
  /** The learned shape of a segment (empty when unknown). */
  readShape(build: string, segmentId: string): Promise<ShapeMember[]>;
  /** Adds members to a segment's shape (a union: concurrent writers never lose names). */
  addToShape(build: string, segmentId: string, members: readonly ShapeMember[]): Promise<void>;
  /** Releases connections or memory. */
  close(): Promise<void>;
}

/** How long learned shapes are kept after their last change. */
export const SHAPE_TTL_MS = 24 * 60 * 60 * 1000;
