/**
 * Notes kept in a file that several processes may share (render replicas on one volume):
 * every write takes the file's lock, reads the file afresh, applies its change and replaces the
 * file atomically, so no process writes over another's notes; every read sees the file as it is
 * now. A file that breaks while the app runs (a bad hand edit) does not take the pages down:
 * reads keep serving the last good list, and readiness reports the file unreadable.
 */
import { serializeNotes, type Note } from '../domain/note.js';
import { writeFileAtomically } from './atomic-file.js';
import { withFileLock } from './file-lock.js';
import { MissingNotesFileError, createFromSeed, notesFileReader } from './notes-file.js';
import { readProblemReporter, type NotesLog } from './notes-log.js';
import { watchNotesFile, type NotesChangeSubscriber } from './notes-watcher.js';

/** What the store needs from where the notes live. */
export interface NotesBackend {
  /** The current list. */
  read(): Promise<readonly Note[]>;
  /** Replaces the list with `change(current).notes`, as one step against other writers. */
  update<T extends { notes: readonly Note[] }>(change: (notes: readonly Note[]) => T): Promise<T>;
  readable(): Promise<boolean>;
  watch?(subscriber: NotesChangeSubscriber): { stop(): void };
}

/** Opens `path`, creating it from `seed` when it is missing; a malformed file is refused. */
export async function openFileBackend(
  path: string,
  seed: { readonly text: string; readonly name: string },
  log: NotesLog,
): Promise<NotesBackend> {
  if (await createFromSeed(path, seed, log))
    log.info({ file: path, seed: seed.name }, 'notes: created NOTES_FILE from the seed');
  const file = notesFileReader(path);
  let lastGood = await file.read();
  const problems = readProblemReporter(
    log,
    path,
    'notes: cannot read NOTES_FILE; serving the notes last read',
  );

  async function read(): Promise<readonly Note[]> {
    try {
      lastGood = await file.read();
      problems.recovered();
    } catch (error) {
      problems.failed(error);
    }
    return lastGood;
  }

  return {
    read,
    update: (change) =>
      withFileLock(
        path,
        async () => {
          let current: readonly Note[];
          try {
            current = await file.reread();
          } catch (error) {
            // Removed while running: write back what was last read rather than lose it all.
            if (!(error instanceof MissingNotesFileError)) throw error;
            log.warn({ file: path }, 'notes: NOTES_FILE is gone; writing the notes last read');
            current = lastGood;
          }
          const next = change(current);
          await writeFileAtomically(path, serializeNotes(next.notes));
          await file.wrote(next.notes);
          lastGood = next.notes;
          return next;
        },
        log,
      ),
    async readable() {
      return file.read().then(
        () => true,
        () => false,
      );
    },
    // Against what this process has served so far: a note it read only now still counts. The
    // same reader, so a version of the file one side parsed is not parsed again by the other.
    watch: (subscriber) =>
      watchNotesFile(path, subscriber, { baseline: lastGood, log, reader: file }),
  };
}
