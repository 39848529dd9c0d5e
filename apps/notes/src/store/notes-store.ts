/**
 * The notes store: reads answer with the tags of what they read, writes with the tags of what
 * they changed. In a file, the notes may be shared with other processes (file-backend.ts: a lock
 * per write, reads that see the others' writes, a change feed); within this process every write
 * goes through one queue, so this process's adds never wait on each other's lock.
 */
import { parseNotesFile, type Note } from '../domain/note.js';
import {
  NOTES_TAG,
  appendNote,
  findNote,
  newestFirst,
  noteTag,
  type NewNote,
} from '../domain/notes-book.js';
import { openFileBackend, type NotesBackend } from './file-backend.js';
import type { NotesLog } from './notes-log.js';
import type { NotesChangeSubscriber } from './notes-watcher.js';

export type { NotesLog } from './notes-log.js';
export type { NotesChangeSubscriber } from './notes-watcher.js';

/** Where the notes come from: a file the store keeps up to date, or a seed kept in memory. */
export type NotesSource =
  | {
      readonly kind: 'file';
      readonly path: string;
      /** What a missing file is created with (absent: no notes). */
      readonly seedText?: string;
      readonly seedName?: string;
    }
  | { readonly kind: 'memory'; readonly seedText: string; readonly seedName: string };

/** Reads return the tags of what they read; writes, the tags of what they changed. */
export interface NotesStore {
  readonly storage: 'file' | 'memory';
  /** Every note, newest first. */
  list(): Promise<{ notes: Note[]; tags: string[] }>;
  get(id: number): Promise<{ note: Note | undefined; tags: string[] }>;
  /** Adds a note; resolves once it is on disk (file storage). */
  add(input: NewNote): Promise<{ note: Note; tags: string[] }>;
  /** Whether the file can still be read and parsed (always, in memory). */
  readable(): Promise<boolean>;
  /** Reports changes made by any process until stopped (file storage only). */
  watch?(subscriber: NotesChangeSubscriber): { stop(): void };
  /** Waits for queued writes, then refuses new ones. */
  close(): Promise<void>;
}

const EMPTY_FILE = '{"version":1,"notes":[]}';
const SILENT: NotesLog = { info: () => undefined, warn: () => undefined };

/** Opens the store; an unreadable or malformed file (or seed) throws a NotesFileError. */
export async function openNotesStore(
  source: NotesSource,
  options: { now?: () => Date; log?: NotesLog } = {},
): Promise<NotesStore> {
  const now = options.now ?? (() => new Date());
  const backend =
    source.kind === 'file'
      ? await openFileBackend(
          source.path,
          { text: source.seedText ?? EMPTY_FILE, name: source.seedName ?? 'an empty list' },
          options.log ?? SILENT,
        )
      : memoryBackend(parseNotesFile(source.seedText, source.seedName));
  // The tail of the write queue; a failed write must not block the ones after it.
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  return {
    storage: source.kind,
    list: async () => ({ notes: newestFirst(await backend.read()), tags: [NOTES_TAG] }),
    get: async (id) => ({ note: findNote(await backend.read(), id), tags: [noteTag(id)] }),
    add(input) {
      if (closed) return Promise.reject(new Error('The notes store is closed'));
      // Appended to the list as it is when the write's turn comes (and its lock is held).
      const write = queue.then(async () => {
        const next = await backend.update((notes) => appendNote(notes, input, now()));
        return { note: next.note, tags: next.tags };
      });
      queue = write.catch(() => undefined);
      return write;
    },
    readable: () => backend.readable(),
    ...(backend.watch && { watch: backend.watch }),
    async close() {
      closed = true;
      await queue;
    },
  };
}

/** The list in this process only: nothing to share, nothing to watch. */
function memoryBackend(seed: readonly Note[]): NotesBackend {
  let notes = seed;
  return {
    read: async () => notes,
    async update(change) {
      const next = change(notes);
      notes = next.notes;
      return next;
    },
    readable: async () => true,
  };
}
