/**
 * Figures for the stats page: cheap totals, and the per-author tally the page streams in later.
 */
import type { Note } from './note.js';

/** Totals over every note. */
export interface NoteTotals {
  readonly notes: number;
  readonly authors: number;
  /** When the newest note was written (null: no notes). */
  readonly latest: string | null;
}

/** One author's number of notes. */
export interface AuthorCount {
  readonly author: string;
  readonly notes: number;
}

/** Counts notes and distinct authors (names compared as written). */
export function noteTotals(notes: readonly Note[]): NoteTotals {
  const latest = notes.reduce<string | null>(
    (newest, note) => (newest === null || note.createdAt > newest ? note.createdAt : newest),
    null,
  );
  return { notes: notes.length, authors: new Set(notes.map((n) => n.author)).size, latest };
}

/** The `limit` authors with the most notes, most first, then by name. */
export function busiestAuthors(notes: readonly Note[], limit: number): AuthorCount[] {
  const counts = new Map<string, number>();
  for (const note of notes) counts.set(note.author, (counts.get(note.author) ?? 0) + 1);
  return [...counts]
    .map(([author, count]) => ({ author, notes: count }))
    .sort((a, b) => b.notes - a.notes || a.author.localeCompare(b.author))
    .slice(0, limit);
}
