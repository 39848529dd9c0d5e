/**
 * The React context carrying the router instance.
 */
import { createContext, use } from 'react';
import type { Router } from '../router/create-router.js';

/** The router of this page, or null outside a RouterProvider (server rendering). */
export const RouterContext = createContext<Router | null>(null);

/** The router; throws outside a RouterProvider. */
export function useRouterInstance(): Router {
  const router = use(RouterContext);
  if (!router)
    throw new Error('This component needs the Strata router (render it inside RouterProvider).');
  return router;
}
