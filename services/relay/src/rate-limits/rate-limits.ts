/**
 * Upstream rate limits per data category, following the rate-limiting spec rather than the JS
 * SDK where they differ: keep the longest limit, fractional seconds, ignore limits whose
 * categories are all unknown. Header grammar (`X-Sentry-Rate-Limits`):
 *   limit[, limit...]   limit = retry_after:categories:scope:reason_code:namespaces[:...]
 * `categories` is `;`-separated, empty = all categories. Without the header, a 429 uses
 * `Retry-After` (seconds or HTTP date), else 60 s. Pure: `now` is passed in (ms).
 */

/** Deadlines (epoch ms) per category; `all` applies to every category. Immutable. */
export type RateLimits = Readonly<Record<string, number>>;

/** The bits of an upstream response that carry limits. */
export interface LimitResponse {
  readonly status?: number | undefined;
  readonly rateLimitsHeader?: string | null | undefined;
  readonly retryAfterHeader?: string | null | undefined;
}

/** Default back-off for a bare 429 (spec and SDK `DEFAULT_RETRY_AFTER`). */
export const DEFAULT_RETRY_AFTER_MS = 60_000;

/** Categories the spec names; limits naming only other categories are ignored. */
export const KNOWN_CATEGORIES: ReadonlySet<string> = new Set([
  'default',
  'error',
  'transaction',
  'monitor',
  'span',
  'log_item',
  'security',
  'attachment',
  'session',
  'profile',
  'profile_chunk',
  'replay',
  'feedback',
  'trace_metric',
  'metric',
  'metric_bucket',
  'internal',
]);

/** Parses `Retry-After` (delta seconds or HTTP date) into ms; 60 s when unparsable. */
export function parseRetryAfter(header: string, now: number): number {
  const seconds = Number(header.trim());
  if (header.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  return DEFAULT_RETRY_AFTER_MS;
}

/** Returns the limits after a response; never shortens a stored limit. */
export function updateRateLimits(
  prev: RateLimits,
  response: LimitResponse,
  now: number,
): RateLimits {
  const next: Record<string, number> = { ...prev };
  const extend = (category: string, until: number): void => {
    if ((next[category] ?? 0) < until) next[category] = until;
  };
  const header = response.rateLimitsHeader?.trim();
  if (header) {
    for (const raw of header.split(',')) {
      const [delayRaw = '', categoriesRaw = '', , , namespacesRaw = ''] = raw
        .trim()
        .split(':')
        .map((part) => part.trim());
      if (delayRaw === '') continue;
      const delaySeconds = Number(delayRaw);
      const delayMs = Number.isFinite(delaySeconds) ? delaySeconds * 1000 : DEFAULT_RETRY_AFTER_MS;
      const categories = categoriesRaw.split(';').filter((c) => c.length > 0);
      if (categories.length === 0) {
        extend('all', now + delayMs);
        continue;
      }
      const known = categories.filter((c) => KNOWN_CATEGORIES.has(c));
      for (const category of known) {
        if (category === 'metric_bucket' && !appliesToCustomMetrics(namespacesRaw)) continue;
        extend(category, now + delayMs);
      }
    }
    return next;
  }
  if (response.status === 429) {
    const retryAfter = response.retryAfterHeader
      ? parseRetryAfter(response.retryAfterHeader, now)
      : DEFAULT_RETRY_AFTER_MS;
    extend('all', now + retryAfter);
  }
  return next;
}

function appliesToCustomMetrics(namespaces: string): boolean {
  const list = namespaces.split(';').filter((n) => n.length > 0);
  return list.length === 0 || list.includes('custom');
}

/** The deadline for a category (its own or `all`, whichever is later); 0 when none. */
export function disabledUntil(limits: RateLimits, category: string): number {
  return Math.max(limits[category] ?? 0, limits.all ?? 0);
}

/** Whether a category is limited at `now`. Client reports (`internal`) only obey `all`. */
export function isRateLimited(limits: RateLimits, category: string, now: number): boolean {
  if (category === 'internal') return (limits.all ?? 0) > now;
  return disabledUntil(limits, category) > now;
}

/** Drops expired entries. */
export function pruneRateLimits(limits: RateLimits, now: number): RateLimits {
  const next: Record<string, number> = {};
  for (const [category, until] of Object.entries(limits)) if (until > now) next[category] = until;
  return next;
}

/** Formats the active limits for clients, in Relay's style (`60::key, 30:error;span:key`). */
export function formatRateLimits(limits: RateLimits, now: number): string | undefined {
  const bySeconds = new Map<number, string[]>();
  for (const [category, until] of Object.entries(limits)) {
    if (until <= now) continue;
    const seconds = Math.ceil((until - now) / 1000);
    const list = bySeconds.get(seconds) ?? [];
    list.push(category === 'all' ? '' : category);
    bySeconds.set(seconds, list);
  }
  if (bySeconds.size === 0) return undefined;
  return [...bySeconds.entries()]
    .sort(([a], [b]) => b - a)
    .map(([seconds, categories]) =>
      categories.includes('') ? `${seconds}::key` : `${seconds}:${categories.sort().join(';')}:key`,
    )
    .join(', ');
}

/** Seconds until every given category is free again (for `Retry-After`), at least 1. */
export function retryAfterSeconds(limits: RateLimits, categories: Iterable<string>, now: number) {
  let latest = now;
  for (const category of categories) latest = Math.max(latest, disabledUntil(limits, category));
  return Math.max(1, Math.ceil((latest - now) / 1000));
}
