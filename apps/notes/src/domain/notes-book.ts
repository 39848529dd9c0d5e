/**
 * What can be done with the notes, as pure functions over the list: reading, appending, and the
 * cache tags each touches. The store (store/notes-store.ts) adds the file and the ordering.
 */
import type { Note } from './note.js';

/** Tag of anything that lists or counts notes. */
export const NOTES_TAG = 'notes';

/** Tag of one note's own data. */
export function noteTag(id: number): string {
  return `note:${id}`;
}

/** A note as the add-note action submits it (already validated and trimmed). */
export interface NewNote {
  readonly author: string;
  readonly text: string;
}

/** Notes, newest first (ids grow with time, so the id breaks ties between equal timestamps). */
export function newestFirst(notes: readonly Note[]): Note[] {
  return [...notes].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
}

/** The note with this id, if any. */
export function findNote(notes: readonly Note[], id: number): Note | undefined {
  return notes.find((note) => note.id === id);
}

/** The notes with `input` appended under the next id, and the tags the change makes stale. */
export function appendNote(
  notes: readonly Note[],
  input: NewNote,
  now: Date,
): { notes: Note[]; note: Note; tags: string[] } {
  // One past the largest id, not the count: ids in a hand-edited file need not be contiguous.
  const id = notes.reduce((max, note) => Math.max(max, note.id), 0) + 1;
  const note: Note = { id, author: input.author, text: input.text, createdAt: now.toISOString() };
  return { notes: [...notes, note], note, tags: [NOTES_TAG, noteTag(id)] };
}
