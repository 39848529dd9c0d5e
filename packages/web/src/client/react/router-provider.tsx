/**
 * Renders the router's current page and re-renders when it changes. An error that escapes
 * every segment's boundary shows the application-error screen with the client-side text.
 */
import { Component, useSyncExternalStore, type ReactNode } from 'react';
import { SegmentTree } from '../../render/segment-tree.js';
import type { Router } from '../router/create-router.js';
import { RouterContext } from './router-context.js';

/** The exact text for errors that happened in the browser. */
export const CLIENT_ERROR_TEXT =
  'Application error: a client-side exception has occurred (see the browser console for more information).';

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
  const { page } = useSyncExternalStore(router.subscribe, router.getSnapshot, router.getSnapshot);
  return (
    <RouterContext value={router}>
      <ClientErrorScreen {...(onError && { onError })}>
        <SegmentTree segments={page.segments} params={page.params} source={page.source} />
      </ClientErrorScreen>
    </RouterContext>
  );
}
