/**
 * The browser router's effect runner: the only part that touches fetch, timers, history and
 * location. It feeds events to the pure `transition`, runs the effects it returns, and owns the
 * prefetch cache and queue instances (never module singletons).
 */
import type { RouteRecord } from '../../protocol/payload-records.js';
import { encodeTreeHeader } from '../../protocol/tree-header.js';
import type { RouteTable } from '../../routes/route-table.js';
import { firstLoadingIndex } from '../../routes/loading-boundary.js';
import type { LivePayload } from './live-payload.js';
import {
  classifyTarget,
  pageKey,
  prefetchAllowed,
  type ConnectionHints,
} from './navigation-target.js';
import { reportNavigationEffects, type NavigationObserver } from './navigation-observer.js';
import { createPage, type Page } from './page.js';
import { submitAction, type ActionOutcome } from './submit-action.js';
import { createLinkVisibility, type LinkVisibility } from './link-visibility.js';
import { createPrefetchCache } from './prefetch-cache.js';
import { completeWith, requestPayload, type Entry } from './payload-request.js';
import type { PrefetchKind } from './prefetch-entry.js';
import { createPrefetchQueue } from './prefetch-queue.js';
import { DEFAULT_ROUTER_CONSTANTS, type RouterConstants } from './router-constants.js';
import {
  initialRouterState,
  transition,
  type HardReason,
  type NavigationMode,
  type RouterEffect,
  type RouterState,
} from './transition.js';

/** What React renders: the committed page and whether a navigation is under way. */
export interface RouterSnapshot {
  readonly page: Page;
  readonly pending: boolean;
}

/** The router's public interface. */
export interface Router {
  subscribe(listener: () => void): () => void;
  getSnapshot(): RouterSnapshot;
  navigate(href: string, options?: { replace?: boolean }): void;
  prefetch(
    href: string,
    kind?: 'auto' | 'full',
    options?: { intent?: boolean },
  ): { cancel(): void };
  refresh(): void;
  back(): void;
  /** React calls this once it has put `page` in the DOM (ends the navigation that made it). */
  rendered(page: Page): void;
  /** Drops cached pages whose data carries any of `tags` (after a server action). */
  invalidate(tags: readonly string[]): void;
  /** Calls a server action and applies its answer to this page. */
  submitAction(actionId: string, input: unknown): Promise<ActionOutcome>;
  /** The shared viewport watcher Links register with. */
  readonly visibility: LinkVisibility;
  readonly constants: RouterConstants;
}

/** The browser APIs the router uses, injectable for tests. */
export interface RouterEnvironment {
  readonly fetch: typeof fetch;
  readonly now: () => number;
  readonly location: { href: string; assign(url: string): void; replace(url: string): void };
  readonly history: Pick<History, 'pushState' | 'replaceState' | 'back' | 'state'> & {
    scrollRestoration?: ScrollRestoration;
  };
  readonly scroll: (target: { top: number } | { hash: string }) => void;
  readonly scrollY: () => number;
  readonly connection: () => ConnectionHints;
  readonly onPopState: (listener: (state: unknown) => void) => void;
}

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
  const loads = new Map<number, { payload: LivePayload; route: RouteRecord }>();
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
  let snapshot: RouterSnapshot = { page, pending: false };

  if (env.history.scrollRestoration) env.history.scrollRestoration = 'manual';
  env.history.replaceState({ strata: historyKey }, '', page.url);
  historyPages.set(historyKey, { page, scrollY: 0 });

  const publish = () => {
    snapshot = { page, pending: state.pending !== null };
    listeners.forEach((listener) => listener());
  };

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

  async function load(id: number, url: URL, mode: NavigationMode): Promise<void> {
    const key = pageKey(url);
    const tree = encodeTreeHeader(page.keys());
    const found = mode === 'refresh' ? undefined : cache.lookup(key, env.now());
    let entry: Entry;
    if (found && found.status !== 'stale' && (found.entry as Entry).treeKeys === tree) {
      entry = found.entry as Entry;
      queue.bump(key);
    } else {
      entry = request(url, undefined, mode === 'refresh');
      cache.store(entry);
    }
    cache.markUsed(key, env.now());
    try {
      let live = await entry.payload;
      let route = await live.route;
      if (route.until < route.segments.length) {
        // An auto prefetch stopped at a loading view: show what it has now, fetch the rest.
        const rest = request(url, undefined);
        live = completeWith(
          live,
          rest.payload,
          new Set(route.segments.slice(route.until).map((s) => s.id)),
        );
        route = { ...route, until: route.segments.length };
      }
      // Commit once the segments above the first loading view can render; the rest streams in.
      const defs = route.segments.map((s) => options.table.byId.get(s.id));
      const blockingEnd = Math.min(route.until, firstLoadingIndex(defs.map((d) => d ?? {})));
      await Promise.all(
        route.segments.slice(route.from, blockingEnd).map((s) => live.segment(s.id)),
      );
      loads.set(id, { payload: live, route });
      dispatch({ type: 'loaded', id, page: { build: route.build, root: route.root } });
    } catch (error) {
      cache.drop(key);
      dispatch({
        type: 'failed',
        id,
        reason: (error as { reason?: HardReason }).reason ?? 'fetch-failed',
      });
    }
  }

  function commit(id: number, url: string, mode: NavigationMode): void {
    const loaded = loads.get(id);
    loads.delete(id);
    if (!loaded) return;
    historyPages.set(historyKey, { page, scrollY: env.scrollY() });
    page = createPage(options.table, loaded.route, loaded.payload, page, url);
    committing.set(page, { id, pattern: loaded.route.pattern });
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
        void load(effect.id, new URL(effect.url, env.location.href), effect.mode);
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

  function dispatch(event: Parameters<typeof transition>[1]): void {
    const next = transition(state, event);
    state = next.state;
    if (observer) reportNavigationEffects(observer, next.effects);
    next.effects.forEach(run);
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
    prefetch(href, kind = 'auto', prefetchOptions = {}) {
      const none = { cancel: () => undefined };
      const decision = classifyTarget(href, new URL(env.location.href));
      if (decision.kind !== 'soft' || !prefetchAllowed(env.connection())) return none;
      const key = pageKey(decision.url);
      const found = cache.lookup(key, env.now());
      const usable =
        found && found.status !== 'stale' && (found.entry.kind === 'full' || kind === 'auto');
      if (usable) {
        if (prefetchOptions.intent) queue.bump(key);
        return none;
      }
      let started: Entry | undefined;
      const task = queue.enqueue(key, () => {
        started = request(decision.url, kind);
        cache.store(started);
        return started.payload.then((live) => live.complete);
      });
      if (prefetchOptions.intent) queue.bump(key);
      return { cancel: () => void (started ? undefined : task.cancel()) };
    },
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
          invalidate: (tags) => cache.dropTags(tags),
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
