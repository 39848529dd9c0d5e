/**
 * The browser router, composed of its parts: history entries (history-entries.ts), the
 * prefetch side (prefetcher.ts), the page rendered ahead of a likely click (speculation.ts) and
 * the navigations that change the page on screen (navigation-runner.ts). Here they are wired
 * together and published to React as one snapshot.
 */
import { encodeTreeHeader } from '../../protocol/tree-header.js';
import type { RouteTable } from '../../routes/route-table.js';
import { createHistoryEntries } from './history-entries.js';
import { createLinkVisibility } from './link-visibility.js';
import { createNavigationRunner, type NavigationRunner } from './navigation-runner.js';
import type { NavigationObserver } from './navigation-observer.js';
import type { Page } from './page.js';
import { createPrefetcher, type Prefetcher } from './prefetcher.js';
import { DEFAULT_ROUTER_CONSTANTS, type RouterConstants } from './router-constants.js';
import type { Router, RouterEnvironment, RouterSnapshot } from './router-interface.js';
import { createSpeculator, type Speculator } from './speculation.js';
import { submitAction, type ActionDeps } from './submit-action.js';

export type { LinkPrefetch } from './link-prefetch.js';
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
  const history = createHistoryEntries(env, options.initial);
  // The parts reach each other through closures: none calls another while it is being created.
  const speculator: Speculator = createSpeculator({
    table: options.table,
    currentPage: () => navigation.page(),
    usableAnswer: (key) => prefetcher.usable(key)?.payload,
    onChange: () => publish(),
  });
  const prefetcher: Prefetcher = createPrefetcher({
    build: options.build,
    env,
    constants,
    currentPage: () => navigation.page(),
    speculator,
  });
  const navigation: NavigationRunner = createNavigationRunner({
    table: options.table,
    build: options.build,
    initial: options.initial,
    env,
    timeoutMs: constants.routeLoadTimeoutMs,
    history,
    prefetcher,
    speculator,
    observer: options.observer,
    onChange: () => publish(),
  });

  const listeners = new Set<() => void>();
  let snapshot: RouterSnapshot = { page: options.initial, pending: false, speculation: null };
  // React compares snapshots by identity: a new one only when something it renders changed.
  function publish(): void {
    const page = navigation.page();
    const pending = navigation.pending();
    const speculation = speculator.current();
    if (
      snapshot.page === page &&
      snapshot.pending === pending &&
      snapshot.speculation === speculation
    )
      return;
    snapshot = { page, pending, speculation };
    listeners.forEach((listener) => listener());
  }

  const actions: ActionDeps = {
    fetch: env.fetch,
    url: () => navigation.page().url,
    tree: () => encodeTreeHeader(navigation.page().keys()),
    apply: (route, live) => navigation.applyAction(route, live),
    navigate: (location, everySegment) => navigation.navigate(location, false, everySegment),
    invalidate: (tags) => router.invalidate(tags),
    reload: () => env.location.replace(navigation.page().url),
  };

  const router: Router = {
    constants,
    visibility: createLinkVisibility(constants.viewportMarginPx),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => snapshot,
    navigate: (href, navigateOptions = {}) => navigation.navigate(href, navigateOptions.replace),
    prefetch: prefetcher.prefetch,
    refresh: () => navigation.refresh(),
    back: () => env.history.back(),
    rendered: (page) => navigation.rendered(page),
    invalidate(tags) {
      prefetcher.dropTags(tags);
      speculator.drop();
    },
    submitAction: (actionId, input) => submitAction(actions, actionId, input),
  };
  return router;
}
