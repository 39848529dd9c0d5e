/**
 * A note and the notes file's format. Reading validates everything: a file that is not exactly
 * this shape is refused with a message naming the place, never read as an empty store.
 */
import { z } from 'zod';
import { NOTE_LIMITS } from './note-limits.js';

/** The notes file's format version; another version is refused rather than guessed at. */
export const NOTES_FILE_VERSION = 1;

/** One note. */
export interface Note {
  readonly id: number;
  readonly author: string;
  readonly text: string;
  /** ISO 8601, UTC. */
  readonly createdAt: string;
}

// Strict objects: a key this version does not know would be lost at the next write.
const storedNote = z.strictObject({
  id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  author: z.string().trim().min(1, 'is empty').max(NOTE_LIMITS.author),
  text: z.string().trim().min(1, 'is empty').max(NOTE_LIMITS.text),
  // Normalised to UTC with milliseconds, so timestamps order correctly as strings.
  createdAt: z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString()),
});

const notesDocument = z
  .strictObject({
    version: z.literal(NOTES_FILE_VERSION),
    notes: z.array(storedNote),
  })
  .superRefine((document, context) => {
    const seen = new Set<number>();
    document.notes.forEach((note, index) => {
      if (seen.has(note.id))
        context.addIssue({
          code: 'custom',
          path: ['notes', index, 'id'],
          message: `id ${note.id} is used twice`,
        });
      seen.add(note.id);
    });
  });

/** A notes file that cannot be used, and why. */
export class NotesFileError extends Error {
  constructor(source: string, problems: readonly string[]) {
    super(`Cannot use the notes file ${source}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'NotesFileError';
  }
}

/** Parses a notes file's text; `source` names it in the error (a path, "the seed file"). */
export function parseNotesFile(text: string, source: string): Note[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new NotesFileError(source, [`not valid JSON (${(error as Error).message})`]);
  }
  const parsed = notesDocument.safeParse(json);
  if (!parsed.success)
    throw new NotesFileError(
      source,
      parsed.error.issues.map((issue) => `${placeOf(issue.path)}: ${issue.message}`),
    );
  return parsed.data.notes;
}

/** The file's text for these notes (stable key order, a trailing line break). */
export function serializeNotes(notes: readonly Note[]): string {
  const document = {
    version: NOTES_FILE_VERSION,
    notes: notes.map(({ id, author, text, createdAt }) => ({ id, author, text, createdAt })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** `notes[2].text` from ['notes', 2, 'text']. */
function placeOf(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index > 0 ? '.' : ''}${String(part)}`,
    )
    .join('');
}
