/**
 * Renders the router's current page and re-renders when it changes. An error that escapes
 * every segment's boundary shows the application-error screen with the client-side text.
 */
import { Component, useLayoutEffect, useSyncExternalStore, type ReactNode } from 'react';
import { CLIENT_ERROR_TEXT } from '../../render/error-texts.js';
import { SegmentTree } from '../../render/segment-tree.js';
import type { Router } from '../router/create-router.js';
import { RouterContext } from './router-context.js';

export { CLIENT_ERROR_TEXT };

class ClientErrorScreen extends Component<
  { children: ReactNode; onError?: (error: unknown) => void },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error(error);
    this.props.onError?.(error);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <html lang="en">
        <body>
          <main role="alert" id="__strata_client_error">
            <h2>{CLIENT_ERROR_TEXT}</h2>
          </main>
        </body>
      </html>
    );
  }
}

/** Renders the current page of `router`. */
export function RouterProvider({
  router,
  onError,
}: {
  router: Router;
  onError?: (error: unknown) => void;
}): ReactNode {
  // The page alone: a navigation starting (pending) must not re-render the page on screen.
  const currentPage = () => router.getSnapshot().page;
  const page = useSyncExternalStore(router.subscribe, currentPage, currentPage);
  // The page rendered hidden ahead of a likely click; committing it only reveals it.
  const speculation = () => router.getSnapshot().speculation;
  const next = useSyncExternalStore(router.subscribe, speculation, speculation);
  // The new page is in the DOM: the navigation that made it has finished.
  useLayoutEffect(() => router.rendered(page), [router, page]);
  return (
    <RouterContext value={router}>
      <ClientErrorScreen {...(onError && { onError })}>
        <SegmentTree
          segments={page.segments}
          params={page.params}
          source={page.source}
          branches={page.branches}
          next={next}
        />
      </ClientErrorScreen>
    </RouterContext>
  );
}
