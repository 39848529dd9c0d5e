/**
 * The router's browser history and scroll positions. Every entry the router makes carries a
 * key in `history.state`, and the page shown under each key is kept in memory with its scroll
 * position, so back and forward show the page as it was, without asking the server again, and
 * scroll back to where the user left it (the browser's own scroll restoration is turned off).
 */
import type { Page } from './page.js';
import type { RouterEnvironment } from './router-interface.js';
import type { NavigationMode } from './transition.js';

/** What the router does on back and forward. */
export interface BackForward {
  /** Shows the page kept for the entry (its scroll position is restored after). */
  restore(page: Page): void;
  /** Loads the entry's URL, for which no page is kept. */
  load(): void;
}

/** The router's history entries. */
export interface HistoryEntries {
  /**
   * Keeps `page` and the current scroll position under the current entry: before leaving it,
   * or after the page changed in place.
   */
  remember(page: Page): void;
  /**
   * Keeps the newly shown `page` under the entry `mode` makes for `url`. A new or replaced
   * entry scrolls to `url`'s hash, or to the top.
   */
  enter(page: Page, url: string, mode: NavigationMode): void;
  /** Runs `handlers` when the user goes back or forward. */
  onBackForward(handlers: BackForward): void;
}

/** Takes over the current history entry for `initial`. */
export function createHistoryEntries(env: RouterEnvironment, initial: Page): HistoryEntries {
  const kept = new Map<number, { page: Page; scrollY: number }>();
  let key = 0;
  if (env.history.scrollRestoration) env.history.scrollRestoration = 'manual';
  env.history.replaceState({ strata: key }, '', initial.url);
  kept.set(key, { page: initial, scrollY: 0 });

  return {
    remember(page) {
      kept.set(key, { page, scrollY: env.scrollY() });
    },
    enter(page, url, mode) {
      if (mode === 'push') {
        key += 1;
        env.history.pushState({ strata: key }, '', url);
      } else if (mode === 'replace' || mode === 'refresh')
        env.history.replaceState({ strata: key }, '', url);
      kept.set(key, { page, scrollY: 0 });
      if (mode === 'push' || mode === 'replace') {
        const hash = new URL(url, env.location.href).hash;
        env.scroll(hash ? { hash } : { top: 0 });
      }
    },
    onBackForward(handlers) {
      env.onPopState((state) => {
        const popped = (state as { strata?: unknown } | null)?.strata;
        if (typeof popped !== 'number') return handlers.load();
        key = popped;
        const saved = kept.get(key);
        if (!saved) return handlers.load();
        handlers.restore(saved.page);
        env.scroll({ top: saved.scrollY });
      });
    },
  };
}
