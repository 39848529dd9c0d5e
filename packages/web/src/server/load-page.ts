/**
 * How every page render starts, documents and payloads alike: find the route and name the
 * request's transaction after it, then start the loaders of the segments this answer carries,
 * with the request's input, its error reporter and the shared segment cache. Which segments
 * those are is the renderer's decision (a payload skips what the browser keeps).
 */
import { loadRoute, type RouteLoad } from './load-route.js';
import { loaderReporter } from './loader-reporter.js';
import { resolveRoute, type ResolvedRoute } from './resolve-route.js';
import type { RenderRequest, WebRuntime } from './web-runtime.js';

/** The route `request` renders, named as the request's transaction. */
export function routeOf<Services>(
  runtime: WebRuntime<Services>,
  request: RenderRequest<Services>,
): ResolvedRoute<Services> {
  // The HTTP adapter has usually resolved it already (for its metrics label): not twice.
  const route = request.route ?? resolveRoute(runtime, request.url.pathname);
  runtime.telemetry?.nameTransaction(`GET ${route.pattern}`);
  return route;
}

/** Which segments of a route one answer loads, and for what. */
export interface PageLoadOptions<Services> {
  readonly route: ResolvedRoute<Services>;
  /** The search params loaders see (without the payload's own query param). */
  readonly search: URLSearchParams;
  /** Segments before `from` are the browser's already; those from `until` on are not sent. */
  readonly from: number;
  readonly until: number;
  /** A prefetch: the cache may serve anything it keeps and never starts a second load of a key. */
  readonly prefetch: boolean;
}

/** Starts the loads of `route.segments[from..until)` for `request`. */
export function loadPage<Services>(
  runtime: WebRuntime<Services>,
  request: RenderRequest<Services>,
  { route, search, from, until, prefetch }: PageLoadOptions<Services>,
): RouteLoad {
  const { segments, fixed } = route;
  return loadRoute({
    segments,
    from,
    // Fixed segments (the not-found page) come last and are answered, never loaded.
    until: Math.min(until, segments.length - fixed.length),
    fixed: fixed.length === 0 ? fixed : fixed.filter((f) => inRange(segments, f.id, from, until)),
    input: {
      params: route.params,
      search,
      headers: request.headers,
      cookies: request.cookies,
      services: request.services,
      signal: request.signal,
    },
    report: loaderReporter(runtime, request),
    caching: runtime.segmentCache && {
      cache: runtime.segmentCache,
      build: runtime.buildId,
      prefetch,
    },
  });
}

function inRange(
  segments: readonly { id: string }[],
  id: string,
  from: number,
  until: number,
): boolean {
  const index = segments.findIndex((s) => s.id === id);
  return index >= from && index < until;
}
