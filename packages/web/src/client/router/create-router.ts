/**
 * The browser router's effect runner: the only part that touches fetch, timers, history and
 * location. It feeds events to the pure `transition`, runs the effects it returns, and owns the
 * prefetch cache and queue instances (never module singletons).
 */
import { encodeTreeHeader } from '../../protocol/tree-header.js';
import type { RouteTable } from '../../routes/route-table.js';
import { readyNow, whenReady, type ReadyAnswer } from './answer-readiness.js';
import type { LivePayload } from './live-payload.js';
import { classifyTarget, pageKey } from './navigation-target.js';
import { createLinkPrefetch } from './link-prefetch.js';
import { reportNavigationEffects, type NavigationObserver } from './navigation-observer.js';
import { createPage, type Page } from './page.js';
import type { Router, RouterEnvironment, RouterSnapshot } from './router-interface.js';
import { submitAction } from './submit-action.js';
import { createLinkVisibility } from './link-visibility.js';
import { createPrefetchCache } from './prefetch-cache.js';
import { requestPayload, type Entry } from './payload-request.js';
import type { PrefetchKind } from './prefetch-entry.js';
import { createPrefetchQueue } from './prefetch-queue.js';
import { createSpeculator } from './speculation.js';
import { DEFAULT_ROUTER_CONSTANTS, type RouterConstants } from './router-constants.js';
import {
  initialRouterState,
  transition,
  type HardReason,
  type NavigationMode,
  type RouterEffect,
  type RouterEvent,
  type RouterState,
} from './transition.js';

export type { Router, RouterEnvironment, RouterSnapshot } from './router-interface.js';

/** Creates the router for a hydrated page. */
export function createRouter<Services>(options: {
  table: RouteTable<Services>;
  initial: Page;
  build: string;
  environment: RouterEnvironment;
  constants?: Partial<RouterConstants>;
  /** Told when navigations start and end (telemetry). */
  observer?: NavigationObserver;
}): Router {
  const constants = { ...DEFAULT_ROUTER_CONSTANTS, ...options.constants };
  const env = options.environment;
  const cache = createPrefetchCache<LivePayload>(constants);
  const queue = createPrefetchQueue(constants.prefetchConcurrency);
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  const loads = new Map<number, ReadyAnswer>();
  const historyPages = new Map<number, { page: Page; scrollY: number }>();
  const listeners = new Set<() => void>();
  const observer = options.observer;
  // Committed pages waiting for React to render them, with the navigation that made each.
  const committing = new WeakMap<Page, { id: number; pattern: string }>();
  let historyKey = 0;
  let page = options.initial;
  let state: RouterState = initialRouterState({
    url: page.url,
    build: options.build,
    root: page.root,
  });
  let snapshot: RouterSnapshot = { page, pending: false, speculation: null };

  if (env.history.scrollRestoration) env.history.scrollRestoration = 'manual';
  env.history.replaceState({ strata: historyKey }, '', page.url);
  historyPages.set(historyKey, { page, scrollY: 0 });

  const publish = () => {
    const pending = state.pending !== null;
    const speculation = speculator.current();
    if (
      snapshot.page === page &&
      snapshot.pending === pending &&
      snapshot.speculation === speculation
    )
      return;
    snapshot = { page, pending, speculation };
    listeners.forEach((listener) => listener());
  };

  /** The cached answer a navigation to `key` would use now (fresh, asked against this page). */
  function usableEntry(key: string): Entry | undefined {
    const found = cache.lookup(key, env.now());
    if (!found || found.status === 'stale') return undefined;
    const entry = found.entry as Entry;
    return entry.treeKeys === encodeTreeHeader(page.keys()) ? entry : undefined;
  }

  const speculator = createSpeculator({
    table: options.table,
    currentPage: () => page,
    usableAnswer: (key) => usableEntry(key)?.payload,
    onChange: () => publish(),
  });

  const request = (url: URL, prefetch: 'auto' | 'full' | undefined, wholeTree = false): Entry =>
    requestPayload({
      url,
      prefetch,
      tree: encodeTreeHeader(wholeTree ? [] : page.keys()),
      build: options.build,
      fetch: env.fetch,
      now: env.now(),
      cache,
    });

  function load(id: number, url: URL, mode: NavigationMode): void {
    const key = pageKey(url);
    const found = mode === 'refresh' ? undefined : usableEntry(key);
    let entry: Entry;
    if (found) {
      entry = found;
      queue.bump(key);
    } else {
      entry = request(url, undefined, mode === 'refresh');
      cache.store(entry);
    }
    cache.markUsed(key, env.now());
    // A prefetched answer that has fully arrived commits in the same task as the click.
    const ready = readyNow(options.table, entry.payload);
    if (ready) return loaded(id, ready);
    void whenReady(options.table, entry.payload, () => request(url, undefined).payload)
      .then((answer) => loaded(id, answer))
      .catch((error: unknown) => {
        cache.drop(key);
        dispatch({
          type: 'failed',
          id,
          reason: (error as { reason?: HardReason }).reason ?? 'fetch-failed',
        });
      });
  }

  function loaded(id: number, answer: ReadyAnswer): void {
    loads.set(id, answer);
    dispatch({ type: 'loaded', id, page: { build: answer.route.build, root: answer.route.root } });
  }

  function commit(id: number, url: string, mode: NavigationMode): void {
    const answer = loads.get(id);
    loads.delete(id);
    if (!answer) return;
    historyPages.set(historyKey, { page, scrollY: env.scrollY() });
    // The page rendered ahead of this click, if it is this answer's: React only reveals it.
    page =
      speculator.take(answer, url) ??
      createPage(options.table, answer.route, answer.payload, page, url);
    committing.set(page, { id, pattern: answer.route.pattern });
    if (mode === 'push') {
      historyKey += 1;
      env.history.pushState({ strata: historyKey }, '', url);
    } else if (mode === 'replace' || mode === 'refresh')
      env.history.replaceState({ strata: historyKey }, '', url);
    historyPages.set(historyKey, { page, scrollY: 0 });
    if (mode === 'push' || mode === 'replace')
      env.scroll(
        new URL(url, env.location.href).hash
          ? { hash: new URL(url, env.location.href).hash }
          : { top: 0 },
      );
  }

  function run(effect: RouterEffect): void {
    switch (effect.type) {
      case 'load':
        load(effect.id, new URL(effect.url, env.location.href), effect.mode);
        return;
      case 'start-timer':
        timers.set(
          effect.id,
          setTimeout(
            () => dispatch({ type: 'timeout', id: effect.id }),
            constants.routeLoadTimeoutMs,
          ),
        );
        return;
      case 'cancel-timer':
        clearTimeout(timers.get(effect.id));
        timers.delete(effect.id);
        return;
      case 'abandon':
        loads.delete(effect.id);
        return;
      case 'commit':
        commit(effect.id, effect.url, effect.mode);
        return;
      case 'hard-navigate':
        if (effect.replace) env.location.replace(effect.url);
        else env.location.assign(effect.url);
        return;
    }
  }

  // Events raised while effects run (a settled answer loads synchronously) wait until the
  // current event's effects are done; subscribers hear once, about the final state.
  const queued: RouterEvent[] = [];
  let dispatching = false;
  function dispatch(event: RouterEvent): void {
    queued.push(event);
    if (dispatching) return;
    dispatching = true;
    try {
      for (let next = queued.shift(); next; next = queued.shift()) {
        const step = transition(state, next);
        state = step.state;
        if (observer) reportNavigationEffects(observer, step.effects);
        step.effects.forEach(run);
      }
    } finally {
      dispatching = false;
      queued.length = 0;
    }
    publish();
  }

  env.onPopState((historyState) => {
    const key = (historyState as { strata?: unknown } | null)?.strata;
    const saved = typeof key === 'number' ? historyPages.get(key) : undefined;
    if (typeof key === 'number') historyKey = key;
    if (saved) {
      // Back and forward show the page as it was, without asking the server again.
      page = saved.page;
      state = { ...state, url: page.url, pending: null };
      publish();
      env.scroll({ top: saved.scrollY });
      return;
    }
    dispatch({ type: 'navigate', url: env.location.href, mode: 'pop', now: env.now() });
  });

  const this_: Router = {
    constants,
    visibility: createLinkVisibility(constants.viewportMarginPx),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    navigate(href, navigateOptions = {}) {
      const decision = classifyTarget(href, new URL(env.location.href));
      if (decision.kind === 'hard')
        return navigateOptions.replace
          ? env.location.replace(decision.url.href)
          : env.location.assign(decision.url.href);
      if (decision.kind === 'hash') {
        historyPages.set(historyKey, { page, scrollY: env.scrollY() });
        historyKey += 1;
        env.history.pushState({ strata: historyKey }, '', decision.url.href);
        historyPages.set(historyKey, { page, scrollY: 0 });
        return env.scroll({ hash: decision.url.hash });
      }
      cache.prune(env.now());
      dispatch({
        type: 'navigate',
        url: decision.url.pathname + decision.url.search + decision.url.hash,
        mode: navigateOptions.replace ? 'replace' : 'push',
        now: env.now(),
      });
    },
    prefetch: createLinkPrefetch({ env, cache, queue, speculator, request }),
    refresh() {
      cache.drop(pageKey(new URL(page.url, env.location.href)));
      dispatch({ type: 'navigate', url: page.url, mode: 'refresh', now: env.now() });
    },
    back: () => env.history.back(),
    rendered(rendered) {
      const navigation = committing.get(rendered);
      if (navigation) observer?.ended({ ...navigation, outcome: 'committed' });
      committing.delete(rendered);
    },
    invalidate(tags) {
      cache.dropTags(tags);
      speculator.drop();
    },
    submitAction: (actionId, input) =>
      submitAction(
        {
          fetch: env.fetch,
          url: () => page.url,
          tree: () => encodeTreeHeader(page.keys()),
          apply(route, live) {
            page = createPage(options.table, route, live, page, page.url);
            historyPages.set(historyKey, { page, scrollY: env.scrollY() });
            publish();
          },
          navigate: (location) => this_.navigate(location),
          invalidate: (tags) => this_.invalidate(tags),
          reload: () => env.location.replace(page.url),
        },
        actionId,
        input,
      ),
  };
  return this_;
}

/** Kinds the Link component may ask for. */
export type LinkPrefetch = Exclude<PrefetchKind, 'temporary'> | false;
