import { describe, expect, it } from 'vitest';
import { addNoteInput } from './note-input.js';

function fieldErrors(input: unknown): Record<string, string[]> {
  const parsed = addNoteInput.safeParse(input);
  if (parsed.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues)
    (errors[issue.path.join('.')] ??= []).push(issue.message);
  return errors;
}

describe('addNoteInput', () => {
  it('accepts a name and a note, trimmed', () => {
    expect(addNoteInput.parse({ author: '  Ada ', text: ' Hello\n' })).toEqual({
      author: 'Ada',
      text: 'Hello',
    });
  });

  it('drops fields it does not know', () => {
    expect(addNoteInput.parse({ author: 'Ada', text: 'Hi', id: 99, createdAt: 'x' })).toEqual({
      author: 'Ada',
      text: 'Hi',
    });
  });

  it('names each missing or blank field', () => {
    expect(fieldErrors({})).toEqual({ author: ['Enter your name'], text: ['Write a note'] });
    expect(fieldErrors({ author: '   ', text: '\n' })).toEqual({
      author: ['Enter your name'],
      text: ['Write a note'],
    });
  });

  it('refuses over-long fields at the limits the file allows', () => {
    expect(fieldErrors({ author: 'a'.repeat(60), text: 't'.repeat(500) })).toEqual({});
    expect(fieldErrors({ author: 'a'.repeat(61), text: 't'.repeat(501) })).toEqual({
      author: ['Names are at most 60 characters'],
      text: ['Notes are at most 500 characters'],
    });
  });

  it('refuses values that are not strings', () => {
    expect(fieldErrors({ author: ['Ada'], text: { x: 1 } })).toEqual({
      author: ['Enter your name'],
      text: ['Write a note'],
    });
  });
});
