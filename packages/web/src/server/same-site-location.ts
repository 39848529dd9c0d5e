/**
 * Every URL the server builds a redirect from stays on this site: the request target is parsed
 * under a fixed internal origin (so `//host/x` or `/\host/x` is a path, never a host), and
 * every `Location` is a path that starts with exactly one `/` (a browser reads `//host` or
 * `/\host` as another site). Pure.
 */

const INTERNAL_ORIGIN = 'http://strata.internal';

/**
 * The request target (`request.url`) as a URL on the internal origin. A target in absolute form
 * (`http://host/path`) keeps only its path and query. Null when it cannot be parsed at all.
 */
export function requestUrl(target: string): URL | null {
  try {
    // Concatenated, not resolved: resolving `//evil.example/x` against a base makes it a host.
    if (target.startsWith('/')) return new URL(INTERNAL_ORIGIN + target);
    const absolute = new URL(target);
    return new URL(INTERNAL_ORIGIN + absolute.pathname + absolute.search);
  } catch {
    return null;
  }
}

/**
 * The path and query of a URL on the internal origin, with runs of slashes collapsed, so it
 * starts with a single `/`. Routing ignores empty path segments, so the page is the same one.
 */
export function sameSitePath(url: URL): string {
  return url.pathname.replace(/\/{2,}/g, '/') + url.search;
}

/**
 * A `Location` for `location` as an application passed it to `redirect()`: resolved the way a
 * browser would resolve it from the site's root, then reduced to its path, query and fragment
 * on this site. `https://evil.example/x` and `//evil.example/x` both become `/x`.
 */
export function sameSiteLocation(location: string): string {
  let url: URL;
  try {
    url = new URL(location, `${INTERNAL_ORIGIN}/`);
  } catch {
    return '/';
  }
  if (url.origin !== INTERNAL_ORIGIN)
    url = requestUrl(`/${url.pathname}${url.search}${url.hash}`) ?? new URL(`${INTERNAL_ORIGIN}/`);
  return sameSitePath(url) + url.hash;
}
