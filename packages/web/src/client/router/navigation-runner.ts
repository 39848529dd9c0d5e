/**
 * Runs navigations: feeds events to the pure `transition` and runs the effects it returns. A
 * navigation loads its answer (cached or requested), has `timeoutMs` to load before it becomes
 * a full page load, and commits its page into history; an overtaken navigation's answer is
 * dropped. Owns the page on screen, so it also shows kept pages on back and forward and applies
 * server actions' refreshed segments.
 */
import type { RouteRecord } from '../../protocol/payload-records.js';
import type { RouteTable } from '../../routes/route-table.js';
import { readyNow, whenReady, type ReadyAnswer } from './answer-readiness.js';
import type { HistoryEntries } from './history-entries.js';
import type { LivePayload } from './live-payload.js';
import { reportNavigationEffects, type NavigationObserver } from './navigation-observer.js';
import { classifyTarget, pageKey } from './navigation-target.js';
import { createPage, type Page } from './page.js';
import type { Prefetcher } from './prefetcher.js';
import type { RouterEnvironment } from './router-interface.js';
import type { Speculator } from './speculation.js';
import {
  initialRouterState,
  transition,
  type HardReason,
  type NavigationMode,
  type RouterEffect,
  type RouterEvent,
  type RouterState,
} from './transition.js';

/** The page on screen and the ways it changes. */
export interface NavigationRunner {
  /** The committed page. */
  page(): Page;
  /** Whether a navigation waits for its answer. */
  pending(): boolean;
  /**
   * `router.navigate`: a soft navigation, a scroll to a hash, or a full page load. With
   * `everySegment`, the page's segments all load again, none kept from the page on screen (after
   * an action changed data they may show).
   */
  navigate(href: string, replace: boolean | undefined, everySegment?: boolean): void;
  /** `router.refresh`: loads every segment of the page on screen again. */
  refresh(): void;
  /** Applies a server action's refreshed segments to the page on screen, in place. */
  applyAction(route: RouteRecord, payload: LivePayload): void;
  /** React has put `page` in the DOM: ends the navigation that made it. */
  rendered(page: Page): void;
}

export function createNavigationRunner<Services>(options: {
  table: RouteTable<Services>;
  build: string;
  initial: Page;
  env: RouterEnvironment;
  /** A navigation whose page has not loaded by then becomes a full page load. */
  timeoutMs: number;
  history: HistoryEntries;
  prefetcher: Prefetcher;
  speculator: Speculator;
  observer: NavigationObserver | undefined;
  /** Called when the page on screen or the pending flag may have changed. */
  onChange: () => void;
}): NavigationRunner {
  const { table, env, history, prefetcher, speculator, observer } = options;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  // Answers whose page can render, until their navigation commits or is abandoned.
  const loads = new Map<number, ReadyAnswer>();
  // Pages (by key) whose next navigation loads every segment rather than keeping any.
  const reloadAll = new Set<string>();
  // Committed pages waiting for React to render them, with the navigation that made each.
  const committing = new WeakMap<Page, { id: number; pattern: string }>();
  let page = options.initial;
  let state: RouterState = initialRouterState({
    url: page.url,
    build: options.build,
    root: page.root,
  });

  function load(id: number, url: URL, mode: NavigationMode): void {
    // A refresh asks for every segment and never uses a cached answer.
    const entry = prefetcher.forNavigation(url, reloadAll.delete(pageKey(url)) ? 'refresh' : mode);
    // A prefetched answer that has fully arrived commits in the same task as the click.
    const ready = readyNow(table, entry.payload);
    if (ready) return loaded(id, ready);
    void whenReady(table, entry.payload, () => prefetcher.fetchRest(url))
      .then((answer) => loaded(id, answer))
      .catch((error: unknown) => {
        prefetcher.drop(entry.url);
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
    history.remember(page);
    // The page rendered ahead of this click, if it is this answer's: React only reveals it.
    page =
      speculator.take(answer, url) ?? createPage(table, answer.route, answer.payload, page, url);
    committing.set(page, { id, pattern: answer.route.pattern });
    history.enter(page, url, mode);
  }

  function run(effect: RouterEffect): void {
    switch (effect.type) {
      case 'load':
        load(effect.id, new URL(effect.url, env.location.href), effect.mode);
        return;
      case 'start-timer':
        timers.set(
          effect.id,
          setTimeout(() => dispatch({ type: 'timeout', id: effect.id }), options.timeoutMs),
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
    options.onChange();
  }

  const start = (url: string, mode: NavigationMode) =>
    dispatch({ type: 'navigate', url, mode, now: env.now() });

  history.onBackForward({
    restore(kept) {
      page = kept;
      dispatch({ type: 'restored', url: page.url });
    },
    load: () => start(env.location.href, 'pop'),
  });

  return {
    page: () => page,
    pending: () => state.pending !== null,
    navigate(href, replace, everySegment) {
      const decision = classifyTarget(href, new URL(env.location.href));
      if (decision.kind === 'hard')
        return replace
          ? env.location.replace(decision.url.href)
          : env.location.assign(decision.url.href);
      if (decision.kind === 'hash') {
        // Same page, new history entry, scrolled to the element.
        history.remember(page);
        return history.enter(page, decision.url.href, 'push');
      }
      prefetcher.prune();
      if (everySegment) reloadAll.add(pageKey(decision.url));
      start(
        decision.url.pathname + decision.url.search + decision.url.hash,
        replace ? 'replace' : 'push',
      );
    },
    refresh() {
      prefetcher.drop(pageKey(new URL(page.url, env.location.href)));
      start(page.url, 'refresh');
    },
    applyAction(route, payload) {
      page = createPage(table, route, payload, page, page.url);
      history.remember(page);
      options.onChange();
    },
    rendered(rendered) {
      const navigation = committing.get(rendered);
      if (navigation) observer?.ended({ ...navigation, outcome: 'committed' });
      committing.delete(rendered);
    },
  };
}
