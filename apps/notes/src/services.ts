/**
 * What the notes app's loaders and actions receive for one request. Type-only imports: the
 * browser bundle reaches this file through the pages.
 */
import type { NotesStore } from './store/notes-store.js';

/** Per-request services (the same for every request: the store is the only backend). */
export interface NotesServices {
  readonly notes: NotesStore;
  /** How long the stats page's slow parts take (NOTES_STATS_DELAY). */
  readonly statsDelayMs: number;
}
