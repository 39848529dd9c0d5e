/**
 * Decides, before any request, how a navigation must happen (pure): another origin or /api
 * means a full page load; a change of hash only means scrolling; anything else is a soft
 * navigation. Also decides whether prefetching is allowed on this connection and agent.
 */

/** How to reach a target. */
export type TargetDecision =
  | { readonly kind: 'soft'; readonly url: URL }
  | { readonly kind: 'hash'; readonly url: URL }
  | {
      readonly kind: 'hard';
      readonly url: URL;
      readonly reason: 'other-origin' | 'api-path' | 'not-http';
    };

/** Whether a path is the JSON API (never a page). */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/** Classifies `href` relative to the current location. */
export function classifyTarget(href: string, current: URL): TargetDecision {
  const url = new URL(href, current);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { kind: 'hard', url, reason: 'not-http' };
  if (url.origin !== current.origin) return { kind: 'hard', url, reason: 'other-origin' };
  if (isApiPath(url.pathname)) return { kind: 'hard', url, reason: 'api-path' };
  if (url.pathname === current.pathname && url.search === current.search && url.hash !== '')
    return { kind: 'hash', url };
  return { kind: 'soft', url };
}

/** The cache key of a page: path and query, never the hash. */
export function pageKey(url: URL): string {
  return url.pathname + url.search;
}

// Crawlers and link unfurlers: prefetching for them only costs the server.
const BOT =
  /bot|crawl|spider|slurp|facebookexternalhit|embedly|quora link preview|whatsapp|preview|ia_archiver|lighthouse|pagespeed/i;

/** What the browser says about the connection and the agent. */
export interface ConnectionHints {
  readonly saveData?: boolean | undefined;
  readonly effectiveType?: string | undefined;
  readonly userAgent: string;
}

/** Whether prefetching is allowed: not on Save-Data, not on 2g (slow-2g included), not for bots. */
export function prefetchAllowed(hints: ConnectionHints): boolean {
  if (hints.saveData) return false;
  if (hints.effectiveType?.includes('2g')) return false;
  return !BOT.test(hints.userAgent);
}
