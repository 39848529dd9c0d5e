/**
 * Hooks over the router: navigation methods, the current params, and whether a navigation is
 * under way.
 */
import { useMemo, useSyncExternalStore } from 'react';
import { useRouterInstance } from './router-context.js';

/** Navigation methods. */
export function useRouter() {
  const router = useRouterInstance();
  return useMemo(
    () => ({
      push: (href: string) => router.navigate(href),
      replace: (href: string) => router.navigate(href, { replace: true }),
      refresh: () => router.refresh(),
      prefetch: (href: string, kind: 'auto' | 'full' = 'full') => void router.prefetch(href, kind),
      back: () => router.back(),
    }),
    [router],
  );
}

/** The current route's params. */
export function useParams(): Readonly<Record<string, string>> {
  const router = useRouterInstance();
  return useSyncExternalStore(router.subscribe, () => router.getSnapshot().page.params);
}

/** Whether a navigation is loading. */
export function useNavigationPending(): boolean {
  const router = useRouterInstance();
  return useSyncExternalStore(
    router.subscribe,
    () => router.getSnapshot().pending,
    () => false,
  );
}
