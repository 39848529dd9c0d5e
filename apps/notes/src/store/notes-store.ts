/**
 * The notes store: the list lives in memory, read and validated once at start, and every write
 * goes through one queue, so concurrent adds get distinct ids and the file always holds the last
 * committed list. The app is the file's only writer: edits made by hand while it runs are not
 * seen, and the next add overwrites them.
 */
import { access, constants, readFile } from 'node:fs/promises';
import { NotesFileError, parseNotesFile, serializeNotes, type Note } from '../domain/note.js';
import {
  NOTES_TAG,
  appendNote,
  findNote,
  newestFirst,
  noteTag,
  type NewNote,
} from '../domain/notes-book.js';
import { writeFileAtomically } from './atomic-file.js';

/** Where the notes come from: a file the store keeps up to date, or a seed kept in memory. */
export type NotesSource =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'memory'; readonly seedText: string; readonly seedName: string };

/** Reads return the tags of what they read; writes, the tags of what they changed. */
export interface NotesStore {
  readonly storage: 'file' | 'memory';
  /** Every note, newest first. */
  list(): Promise<{ notes: Note[]; tags: string[] }>;
  get(id: number): Promise<{ note: Note | undefined; tags: string[] }>;
  /** Adds a note; resolves once it is on disk (file storage). */
  add(input: NewNote): Promise<{ note: Note; tags: string[] }>;
  /** Whether the file can still be read (always, in memory). */
  readable(): Promise<boolean>;
  /** Waits for queued writes, then refuses new ones. */
  close(): Promise<void>;
}

/** Opens the store; a missing, unreadable or malformed file throws a NotesFileError. */
export async function openNotesStore(
  source: NotesSource,
  options: { now?: () => Date } = {},
): Promise<NotesStore> {
  const now = options.now ?? (() => new Date());
  let notes: readonly Note[] =
    source.kind === 'file'
      ? parseNotesFile(await readNotesFile(source.path), source.path)
      : parseNotesFile(source.seedText, source.seedName);
  // The tail of the write queue; a failed write must not block the ones after it.
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  return {
    storage: source.kind,
    list: async () => ({ notes: newestFirst(notes), tags: [NOTES_TAG] }),
    get: async (id) => ({ note: findNote(notes, id), tags: [noteTag(id)] }),
    add(input) {
      if (closed) return Promise.reject(new Error('The notes store is closed'));
      const write = queue.then(async () => {
        const next = appendNote(notes, input, now());
        if (source.kind === 'file')
          await writeFileAtomically(source.path, serializeNotes(next.notes));
        // Committed only once written: a failed write leaves the list as the file has it.
        notes = next.notes;
        return { note: next.note, tags: next.tags };
      });
      queue = write.catch(() => undefined);
      return write;
    },
    async readable() {
      if (source.kind === 'memory') return true;
      return access(source.path, constants.R_OK).then(
        () => true,
        () => false,
      );
    },
    async close() {
      closed = true;
      await queue;
    },
  };
}

async function readNotesFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new NotesFileError(path, [
      code === 'ENOENT'
        ? 'does not exist: create it (a copy of apps/notes/seed/notes.json, or {"version":1,"notes":[]}), or unset NOTES_FILE to keep notes in memory'
        : `cannot be read (${code})`,
    ]);
  }
}
