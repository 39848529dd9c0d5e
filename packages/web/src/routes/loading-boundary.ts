/**
 * Where a route's first loading view is: segments before it block a page from showing, the
 * segment with it and those below stream in behind it.
 */

/** Index of the first segment with a loading view (the segment count if there is none). */
export function firstLoadingIndex(segments: readonly { loading?: unknown }[]): number {
  const index = segments.findIndex((segment) => segment.loading !== undefined);
  return index < 0 ? segments.length : index;
}
