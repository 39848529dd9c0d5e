/**
 * Item ids in URLs: only the canonical spelling is an id, so `/items/07` and `/items/7.0` are not
 * found rather than a second URL for the same page (one page, one cache key).
 */

/** Parses a canonical positive integer id ("7", not "07" or "7.0"); null otherwise. */
export function parseId(text: string | undefined): number | null {
  return text !== undefined && /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : null;
}
