/**
 * The route pattern a page request resolved to (`/items/:id`; `/404` for a URL no route
 * matches), kept on the Fastify request. Fastify itself only knows the catch-all `/*` the pages
 * are served by; request metrics read this instead, and its values are bounded by the route
 * table whatever URLs clients send.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

const PAGE_ROUTE = Symbol('strata.pageRoute');

interface PageRouteSlot {
  [PAGE_ROUTE]?: string;
}

/** Declares the slot on the requests of `app` (a Fastify decoration keeps their shape stable). */
export function declarePageRoute(app: FastifyInstance): void {
  app.decorateRequest(PAGE_ROUTE, undefined);
}

/** Records the pattern `request` resolved to. */
export function setPageRoute(request: FastifyRequest, pattern: string): void {
  (request as PageRouteSlot)[PAGE_ROUTE] = pattern;
}

/** The pattern of a page request; undefined for requests the page routes did not resolve. */
export function pageRouteOf(request: FastifyRequest): string | undefined {
  return (request as PageRouteSlot)[PAGE_ROUTE];
}
