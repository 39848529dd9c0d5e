import { describe, expect, it } from 'vitest';
import type { Note } from './note.js';
import { appendNote, findNote, newestFirst } from './notes-book.js';
import { busiestAuthors, noteTotals } from './note-stats.js';
import { parseNoteId } from './note-id.js';

const at = (id: number, author: string, createdAt: string): Note => ({
  id,
  author,
  text: `note ${id}`,
  createdAt,
});
const notes = [
  at(1, 'Ada', '2025-01-01T00:00:00.000Z'),
  at(5, 'Grace', '2025-01-03T00:00:00.000Z'),
  at(3, 'Ada', '2025-01-02T00:00:00.000Z'),
];

describe('appendNote', () => {
  it('gives the next id past the largest, stamps the time, and names the stale tags', () => {
    const now = new Date('2025-02-01T12:00:00.000Z');
    const result = appendNote(notes, { author: 'Linus', text: 'hi' }, now);
    expect(result.note).toEqual({
      id: 6,
      author: 'Linus',
      text: 'hi',
      createdAt: '2025-02-01T12:00:00.000Z',
    });
    expect(result.notes).toEqual([...notes, result.note]);
    expect(result.tags).toEqual(['notes', 'note:6']);
    expect(notes).toHaveLength(3); // the input list is left alone
  });

  it('starts at 1 in an empty book', () => {
    expect(appendNote([], { author: 'A', text: 'b' }, new Date()).note.id).toBe(1);
  });
});

describe('reading', () => {
  it('orders newest first, by id among equal times', () => {
    const tie = at(9, 'Ada', '2025-01-03T00:00:00.000Z');
    expect(newestFirst([...notes, tie]).map((n) => n.id)).toEqual([9, 5, 3, 1]);
    expect(findNote(notes, 3)?.author).toBe('Ada');
    expect(findNote(notes, 2)).toBeUndefined();
  });

  it('counts notes and authors, and ranks the busiest authors', () => {
    expect(noteTotals(notes)).toEqual({
      notes: 3,
      authors: 2,
      latest: '2025-01-03T00:00:00.000Z',
    });
    expect(noteTotals([])).toEqual({ notes: 0, authors: 0, latest: null });
    expect(busiestAuthors(notes, 5)).toEqual([
      { author: 'Ada', notes: 2 },
      { author: 'Grace', notes: 1 },
    ]);
    expect(busiestAuthors(notes, 1)).toEqual([{ author: 'Ada', notes: 2 }]);
  });
});

describe('parseNoteId', () => {
  it.each([
    ['7', 7],
    ['120', 120],
    ['07', null],
    ['7.0', null],
    ['0', null],
    ['-1', null],
    ['broken', null],
    ['', null],
    [undefined, null],
  ])('%s → %s', (text, id) => {
    expect(parseNoteId(text)).toBe(id);
  });
});
