import { describe, expect, it } from 'vitest';
import { NotesFileError, parseNotesFile, serializeNotes } from './note.js';

const note = (fields: Record<string, unknown> = {}) => ({
  id: 1,
  author: 'Ada',
  text: 'Hello',
  createdAt: '2025-01-06T09:15:00.000Z',
  ...fields,
});
const file = (notes: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ version: 1, notes, ...extra });

/** The error parsing `text` throws (the test fails if it throws none). */
function problemsOf(text: string): unknown {
  try {
    parseNotesFile(text, '/data/notes.json');
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('parseNotesFile', () => {
  it('reads a well-formed file and normalises timestamps to UTC', () => {
    const notes = parseNotesFile(
      file([note(), note({ id: 4, createdAt: '2025-01-06T11:15:00+02:00' })]),
      'x',
    );
    expect(notes).toEqual([
      note(),
      { id: 4, author: 'Ada', text: 'Hello', createdAt: '2025-01-06T09:15:00.000Z' },
    ]);
  });

  it('accepts an empty list when the file says so', () => {
    expect(parseNotesFile(file([]), 'x')).toEqual([]);
  });

  it.each([
    ['an empty file', '', /\/data\/notes\.json:\n {2}- not valid JSON/],
    ['truncated JSON', '{"version":1,"notes":[', /not valid JSON/],
    ['a bare list', JSON.stringify([note()]), /\(top level\): /],
    ['no version', JSON.stringify({ notes: [] }), /version: /],
    ['another version', file([], { version: 2 }), /version: /],
    ['a key it does not know', file([note({ colour: 'red' })]), /notes\[0\]: .*colour/],
    ['a blank author', file([note({ author: '  ' })]), /notes\[0\]\.author: is empty/],
    ['an over-long text', file([note({ text: 'x'.repeat(501) })]), /notes\[0\]\.text: /],
    ['a fractional id', file([note({ id: 1.5 })]), /notes\[0\]\.id: /],
    ['a bad date', file([note({ createdAt: 'yesterday' })]), /notes\[0\]\.createdAt: /],
    [
      'a repeated id',
      file([note(), note({ text: 'again' })]),
      /notes\[1\]\.id: id 1 is used twice/,
    ],
  ])('refuses %s, naming the file and the place', (_name, text, message) => {
    const error = problemsOf(text);
    expect(error).toBeInstanceOf(NotesFileError);
    expect((error as Error).message).toContain('Cannot use the notes file /data/notes.json');
    expect((error as Error).message).toMatch(message);
  });
});

describe('serializeNotes', () => {
  it('writes what parseNotesFile reads back', () => {
    const notes = [note(), note({ id: 2, text: 'Second "quoted" line\nand more' })];
    expect(parseNotesFile(serializeNotes(notes), 'x')).toEqual(notes);
    expect(serializeNotes(notes).endsWith('}\n')).toBe(true);
  });
});
