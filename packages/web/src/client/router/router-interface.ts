/**
 * The router's public interface, its snapshot for React, and the browser APIs it runs on.
 */
import type { ConnectionHints } from './navigation-target.js';
import type { Page } from './page.js';
import type { ActionOutcome } from './submit-action.js';
import type { LinkVisibility } from './link-visibility.js';
import type { RouterConstants } from './router-constants.js';

/**
 * What React renders: the committed page, whether a navigation is under way, and the page
 * rendered hidden ahead of a likely click (see speculation.ts).
 */
export interface RouterSnapshot {
  readonly page: Page;
  readonly pending: boolean;
  readonly speculation: Page | null;
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
