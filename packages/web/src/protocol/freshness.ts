/**
 * How long segment data stays fresh and how long it is kept, shared by the browser's prefetch
 * cache and the render service's segment cache so both layers age data the same way.
 */

/** Data younger than this is served without asking the server again. */
export const FRESH_MS = 30_000;

/** Data older than this is dropped; between FRESH_MS and KEPT_MS it is stale. */
export const KEPT_MS = 300_000;
