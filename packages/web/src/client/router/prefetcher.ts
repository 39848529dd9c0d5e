/**
 * The router's prefetch side: its prefetch cache and queue (instances per router, never module
 * singletons), `router.prefetch` for links, and where a navigation's answer comes from: the
 * cached one while it is fresh and was asked against the page on screen, a new request
 * otherwise. Requests name the segments the page on screen already has, so answers leave them
 * out (a refresh names none).
 */
import { encodeTreeHeader } from '../../protocol/tree-header.js';
import { createLinkPrefetch } from './link-prefetch.js';
import type { LivePayload } from './live-payload.js';
import { pageKey } from './navigation-target.js';
import type { Page } from './page.js';
import { requestPayload, type Entry } from './payload-request.js';
import { createPrefetchCache } from './prefetch-cache.js';
import { createPrefetchQueue } from './prefetch-queue.js';
import type { RouterConstants } from './router-constants.js';
import type { Router, RouterEnvironment } from './router-interface.js';
import type { Speculator } from './speculation.js';
import type { NavigationMode } from './transition.js';

/** The prefetch side, as the router and its navigations use it. */
export interface Prefetcher {
  /** `router.prefetch`. */
  readonly prefetch: Router['prefetch'];
  /** The cached answer a navigation to `key` would use now (fresh, asked against this page). */
  usable(key: string): Entry | undefined;
  /** The answer a navigation to `url` uses; requested now (and cached) when none is usable. */
  forNavigation(url: URL, mode: NavigationMode): Entry;
  /** Requests `url` again, uncached: the rest of an answer that stopped at a loading view. */
  fetchRest(url: URL): Promise<LivePayload>;
  /** Drops the entry cached under `key`. */
  drop(key: string): void;
  /** Drops entries whose data carries any of `tags`. */
  dropTags(tags: readonly string[]): void;
  /** Drops entries past their lifetime. */
  prune(): void;
}

export function createPrefetcher(options: {
  build: string;
  env: RouterEnvironment;
  constants: RouterConstants;
  /** The page on screen: answers are asked against it. */
  currentPage: () => Page;
  speculator: Speculator;
}): Prefetcher {
  const { build, env, currentPage } = options;
  const cache = createPrefetchCache<LivePayload>(options.constants);
  const queue = createPrefetchQueue(options.constants.prefetchConcurrency);

  const request = (url: URL, prefetch: 'auto' | 'full' | undefined, wholeTree = false): Entry =>
    requestPayload({
      url,
      prefetch,
      tree: encodeTreeHeader(wholeTree ? [] : currentPage().keys()),
      build,
      fetch: env.fetch,
      now: env.now(),
      cache,
    });

  function usable(key: string): Entry | undefined {
    const found = cache.lookup(key, env.now());
    if (!found || found.status === 'stale') return undefined;
    const entry = found.entry as Entry;
    return entry.treeKeys === encodeTreeHeader(currentPage().keys()) ? entry : undefined;
  }

  return {
    prefetch: createLinkPrefetch({ env, cache, queue, speculator: options.speculator, request }),
    usable,
    forNavigation(url, mode) {
      const key = pageKey(url);
      // A prefetch still queued for this page starts now (its entry is stored as it starts),
      // so the navigation uses it rather than sending the same request twice. A refresh asks
      // for every segment again, so nothing cached will do.
      const refresh = mode === 'refresh';
      if (!refresh) queue.bump(key);
      const found = refresh ? undefined : usable(key);
      let entry: Entry;
      if (found) {
        entry = found;
      } else {
        entry = request(url, undefined, mode === 'refresh');
        cache.store(entry);
      }
      cache.markUsed(key, env.now());
      return entry;
    },
    fetchRest: (url) => request(url, undefined).payload,
    drop: (key) => cache.drop(key),
    dropTags: (tags) => void cache.dropTags(tags),
    prune: () => cache.prune(env.now()),
  };
}
