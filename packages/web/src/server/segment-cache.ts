/**
 * The hook through which a shared segment cache (the render service's Redis cache) serves and
 * stores loader results. The runtime stays cache-agnostic: without a cache, loaders just run.
 */
import type { LoadedSegment } from './run-loader.js';

/** What the cache may use to find an entry for one segment of one request. */
export interface SegmentLookup {
  readonly build: string;
  readonly segmentId: string;
  readonly params: Readonly<Record<string, string>>;
  readonly search: URLSearchParams;
  /** A prefetch: serve whatever is cached, even stale, and never start more than one load per key. */
  readonly prefetch: boolean;
}

/** A cache of segment results shared by every replica. */
export interface SegmentCache {
  /**
   * Answers the segment for this request: from the cache when it holds a usable entry for the
   * key the segment would have, otherwise by calling `load` (at most one caller per key at a
   * time across replicas) and storing the result if it is cacheable (status ok, not private,
   * no deferred values).
   */
  resolve(lookup: SegmentLookup, load: () => Promise<LoadedSegment>): Promise<LoadedSegment>;
}
