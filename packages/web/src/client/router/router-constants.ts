/**
 * The browser router's numbers, in one place. The defaults are the specification's; an
 * application may override any of them when it creates the router.
 */
import { FRESH_MS, KEPT_MS } from '../../protocol/freshness.js';

/** Tunable router constants. */
export interface RouterConstants {
  /** Prefetch requests in flight at once. */
  readonly prefetchConcurrency: number;
  /** A navigation whose page has not loaded by then becomes a full page load. */
  readonly routeLoadTimeoutMs: number;
  /** Unused prefetches younger than this are fresh; a use keeps an entry reusable this long. */
  readonly freshMs: number;
  /** Entries older than this are dropped; auto entries between freshMs and this are stale. */
  readonly keptMs: number;
  /** IntersectionObserver margin for viewport prefetch. */
  readonly viewportMarginPx: number;
  /** The prefetch cache's memory budget (bytes of payload text). */
  readonly cacheBudgetBytes: number;
}

/** The specification's values. */
export const DEFAULT_ROUTER_CONSTANTS: RouterConstants = {
  prefetchConcurrency: 5,
  routeLoadTimeoutMs: 3800,
  freshMs: FRESH_MS,
  keptMs: KEPT_MS,
  viewportMarginPx: 200,
  cacheBudgetBytes: 8 * 1024 * 1024,
};
