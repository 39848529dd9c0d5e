/**
 * Request-rate limits the relay sets itself, per client address and per project key: a fixed
 * window per key counting requests, like Sentry's quotas. Memory is bounded: at most `maxKeys`
 * windows are kept, and a new key past that evicts the window that started longest ago (so a
 * flood of distinct addresses costs a fixed amount). Pure: `now` is passed in (ms).
 */

/** Limiter settings; `limit` 0 switches it off (no limiter at all). */
export interface RequestLimiterOptions {
  readonly limit: number;
  readonly windowMs: number;
  readonly maxKeys: number;
}

/**
 * Counts requests per key: 0 when allowed, else the ms until the key's window ends. A limit kept
 * in this process answers at once; one shared with other replicas answers with a promise.
 */
export interface RequestLimiter {
  take(key: string, now: number): number | Promise<number>;
}

/** A limit kept in this process: it answers at once. */
export interface LocalRequestLimiter extends RequestLimiter {
  take(key: string, now: number): number;
}

interface Window {
  readonly start: number;
  count: number;
}

/** Creates a limiter; undefined when `limit` is 0, so a switched-off limit costs nothing. */
export function createRequestLimiter(
  options: RequestLimiterOptions,
): LocalRequestLimiter | undefined {
  if (options.limit === 0) return undefined;
  const windows = new Map<string, Window>();
  return {
    take(key, now) {
      const window = windows.get(key);
      if (window && now - window.start < options.windowMs) {
        if (window.count >= options.limit) return window.start + options.windowMs - now;
        window.count += 1;
        return 0;
      }
      // Re-inserting keeps the map ordered by window start: the first entry is the oldest.
      windows.delete(key);
      if (windows.size >= options.maxKeys) {
        const oldest = windows.keys().next();
        if (!oldest.done) windows.delete(oldest.value);
      }
      windows.set(key, { start: now, count: 1 });
      return 0;
    },
  };
}
