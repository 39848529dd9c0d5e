/**
 * CORS as Sentry ingest does it (Relay `middlewares/cors.rs`): POST from any origin (or the
 * configured allow-list), the SDK's request headers, a one-hour preflight cache, and the
 * response headers SDKs must read exposed: `X-Sentry-Error`, `X-Sentry-Rate-Limits`, `Retry-After`.
 */

const ALLOW_HEADERS = [
  'x-sentry-auth',
  'x-requested-with',
  'x-forwarded-for',
  'origin',
  'referer',
  'accept',
  'content-type',
  'authentication',
  'authorization',
  'content-encoding',
  'transfer-encoding',
].join(', ');
const EXPOSE_HEADERS = 'x-sentry-error, x-sentry-rate-limits, retry-after';

/** Whether an Origin may post (no Origin header = not a browser CORS request). */
export function isOriginAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  return origin === undefined || allowed.length === 0 || allowed.includes(origin);
}

/** Headers for an actual (non-preflight) response. */
export function corsHeaders(
  origin: string | undefined,
  allowed: readonly string[],
): Record<string, string> {
  if (origin === undefined) return {};
  if (allowed.length === 0)
    return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSE_HEADERS };
  if (!allowed.includes(origin)) return { vary: 'Origin' };
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSE_HEADERS,
    vary: 'Origin',
  };
}

/** Headers for a preflight (OPTIONS) response. */
export function preflightHeaders(
  origin: string | undefined,
  allowed: readonly string[],
): Record<string, string> {
  const base = corsHeaders(origin, allowed);
  if (!base['access-control-allow-origin']) return base;
  return {
    ...base,
    'access-control-allow-methods': 'POST, OPTIONS',
    'access-control-allow-headers': ALLOW_HEADERS,
    'access-control-max-age': '3600',
  };
}
