/**
 * Fetches one payload answer and turns it into a cache entry: checks that the answer is a
 * payload of this build (anything else means a full page load), then streams it in.
 */
import { HEADERS, PAYLOAD_CONTENT_TYPE, PAYLOAD_QUERY_PARAM } from '../../protocol/constants.js';
import { payloadHash } from '../../protocol/payload-hash.js';
import { track } from '../../render/tracked-promise.js';
import { readPayload, type LivePayload } from './live-payload.js';
import { pageKey } from './navigation-target.js';
import type { CacheEntry, PrefetchCache } from './prefetch-cache.js';
import type { HardReason } from './transition.js';

/** A cache entry for a payload, remembering the tree it was asked against. */
export type Entry = CacheEntry<LivePayload> & { treeKeys: string };

function hardReason(reason: HardReason): Error & { reason: HardReason } {
  return Object.assign(new Error(`payload refused: ${reason}`), { reason });
}

/** Starts the request; the entry's payload settles when the answer's headers arrive. */
export function requestPayload(options: {
  url: URL;
  prefetch: 'auto' | 'full' | undefined;
  tree: string;
  build: string;
  fetch: typeof fetch;
  now: number;
  cache: PrefetchCache<LivePayload>;
}): Entry {
  const { url, prefetch, tree } = options;
  const target = new URL(url);
  target.searchParams.set(PAYLOAD_QUERY_PARAM, payloadHash({ tree, prefetch }));
  const headers: Record<string, string> = {
    [HEADERS.payload]: '1',
    [HEADERS.tree]: tree,
    ...(prefetch && { [HEADERS.prefetch]: prefetch }),
  };
  // Tracked, so a navigation can see synchronously that a prefetched answer has arrived.
  const payload = track(
    options
      .fetch(target.pathname + target.search, { headers, credentials: 'same-origin' })
      .then((response) => {
        const type = response.headers.get('content-type') ?? '';
        if (!type.startsWith(PAYLOAD_CONTENT_TYPE.split(';')[0] ?? '') || !response.body)
          throw hardReason('not-a-payload');
        // A 404 still carries a payload (the not-found page); other failures do not.
        if (!response.ok && response.status !== 404) throw hardReason('not-ok');
        if (response.headers.get(HEADERS.build) !== options.build)
          throw hardReason('build-changed');
        return readPayload(response.body);
      }),
  );
  payload.catch(() => undefined);
  const key = pageKey(url);
  const entry: Entry = {
    url: key,
    kind: prefetch ?? 'temporary',
    prefetchTime: options.now,
    lastUsedTime: null,
    payload,
    bytes: 0,
    tags: [],
    treeKeys: tree,
  };
  void payload.then(
    (live) => live.complete.then(() => options.cache.resize(key, live.bytes(), live.tags())),
    () => options.cache.drop(key),
  );
  return entry;
}

/** A payload whose segments in `missing` come from a second answer. */
export function completeWith(
  first: LivePayload,
  second: Promise<LivePayload>,
  missing: ReadonlySet<string>,
): LivePayload {
  return {
    ...first,
    segment: (id) =>
      missing.has(id) ? second.then((live) => live.segment(id)) : first.segment(id),
    deferred: (id, key) =>
      missing.has(id) ? second.then((live) => live.deferred(id, key)) : first.deferred(id, key),
  };
}
