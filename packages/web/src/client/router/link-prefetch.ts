/**
 * `router.prefetch`: queues a payload request for a link's page unless the cache already holds
 * a usable one. Intent (pointer or touch on the link) moves the request to the front of the
 * queue and asks for the page to be rendered ahead of the click.
 */
import type { LivePayload } from './live-payload.js';
import { classifyTarget, pageKey, prefetchAllowed } from './navigation-target.js';
import type { Entry } from './payload-request.js';
import type { PrefetchCache } from './prefetch-cache.js';
import type { PrefetchKind } from './prefetch-entry.js';
import type { PrefetchQueue } from './prefetch-queue.js';
import type { Router, RouterEnvironment } from './router-interface.js';
import type { Speculator } from './speculation.js';

/** Kinds the Link component may ask for. */
export type LinkPrefetch = Exclude<PrefetchKind, 'temporary'> | false;

export function createLinkPrefetch(deps: {
  env: RouterEnvironment;
  cache: PrefetchCache<LivePayload>;
  queue: PrefetchQueue;
  speculator: Speculator;
  request: (url: URL, kind: 'auto' | 'full') => Entry;
}): Router['prefetch'] {
  const { env, cache, queue, speculator } = deps;
  const none = { cancel: () => undefined };
  return (href, kind = 'auto', options = {}) => {
    const decision = classifyTarget(href, new URL(env.location.href));
    if (decision.kind !== 'soft' || !prefetchAllowed(env.connection())) return none;
    const key = pageKey(decision.url);
    const found = cache.lookup(key, env.now());
    const usable =
      found && found.status !== 'stale' && (found.entry.kind === 'full' || kind === 'auto');
    const intent = () => {
      if (!options.intent) return;
      queue.bump(key);
      speculator.intend(key, decision.url.pathname + decision.url.search + decision.url.hash);
    };
    if (usable) {
      intent();
      return none;
    }
    let started: Entry | undefined;
    const task = queue.enqueue(key, () => {
      started = deps.request(decision.url, kind);
      cache.store(started);
      return started.payload.then((live) => live.complete).then(() => speculator.arrived(key));
    });
    intent();
    return { cancel: () => void (started ? undefined : task.cancel()) };
  };
}
