/**
 * Note ids in URLs: only the canonical spelling is an id, so `/notes/07` is not found rather
 * than a second address (and cache key) for note 7.
 */

/** Parses "7" (not "07", "7.0" or "seven") to 7; null otherwise. */
export function parseNoteId(text: string | undefined): number | null {
  return text !== undefined && /^[1-9][0-9]{0,14}$/.test(text) ? Number(text) : null;
}
