/**
 * The notes file as other processes may change it: reads re-parse the file only when its
 * identity changed (inode, size and mtime from one `stat`, cheap enough for every read), and a
 * missing file can be created from the seed.
 */
import type { BigIntStats } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { NotesFileError, parseNotesFile, serializeNotes, type Note } from '../domain/note.js';
import { writeFileAtomically } from './atomic-file.js';
import { withFileLock } from './file-lock.js';
import type { NotesLog } from './notes-log.js';

/** The file is not there (it was removed, or its directory was). */
export class MissingNotesFileError extends NotesFileError {}

/** Reads one notes file, remembering what it last parsed. */
export interface NotesFileReader {
  /** The notes as the file holds them now; throws a NotesFileError when it cannot be used. */
  read(): Promise<readonly Note[]>;
  /** The same, re-reading the file whatever its `stat` says (under the write lock). */
  reread(): Promise<readonly Note[]>;
  /** Remembers that this process just replaced the file with `notes`. */
  wrote(notes: readonly Note[]): Promise<void>;
}

export function notesFileReader(path: string): NotesFileReader {
  // What the file held when it had this identity; a failure is remembered the same way, so a
  // broken file is not parsed again on every read.
  let last: { identity: string; notes?: readonly Note[]; error?: NotesFileError } | undefined;

  async function load(): Promise<readonly Note[]> {
    // Identity and text from one open handle: both describe the same file, even if it is
    // replaced meanwhile (then the next read sees a new identity and reads again).
    const handle = await open(path, 'r').catch((error: unknown) => {
      throw ioError(path, error);
    });
    try {
      const identity = identityOf(await handle.stat({ bigint: true }));
      const text = await handle.readFile('utf8');
      try {
        const notes = parseNotesFile(text, path);
        last = { identity, notes };
        return notes;
      } catch (error) {
        last = { identity, error: error as NotesFileError };
        throw error;
      }
    } finally {
      await handle.close();
    }
  }

  return {
    async read() {
      const identity = await currentIdentity(path);
      if (last && identity === last.identity) {
        if (last.error) throw last.error;
        if (last.notes) return last.notes;
      }
      return load();
    },
    reread: load,
    async wrote(notes) {
      // Unknown identity (the file went again): the next read reads it.
      last = await currentIdentity(path).then(
        (identity) => ({ identity, notes }),
        () => undefined,
      );
    },
  };
}

/** Creates the file from the seed when it is missing and its directory exists; true if it did. */
export async function createFromSeed(
  path: string,
  seed: { readonly text: string; readonly name: string },
  log: Pick<NotesLog, 'warn'>,
): Promise<boolean> {
  if (await exists(path)) return false;
  const directory = await stat(dirname(path)).catch(() => undefined);
  if (!directory?.isDirectory())
    throw new NotesFileError(path, [
      `does not exist, nor does its directory ${dirname(path)}: create the directory (or mount a volume there), or unset NOTES_FILE to keep notes in memory`,
    ]);
  // Written in the file's own format; a malformed seed is refused before anything is written.
  const text = serializeNotes(parseNotesFile(seed.text, seed.name));
  return withFileLock(
    path,
    async () => {
      // Another process may have created it while this one waited for the lock.
      if (await exists(path)) return false;
      await writeFileAtomically(path, text);
      return true;
    },
    log,
  );
}

async function currentIdentity(path: string): Promise<string> {
  try {
    return identityOf(await stat(path, { bigint: true }));
  } catch (error) {
    throw ioError(path, error);
  }
}

/** Every replacement is a rename (a new inode); size and mtime catch edits in place. */
function identityOf(stats: BigIntStats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeNs}`;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw ioError(path, error);
    },
  );
}

function ioError(path: string, error: unknown): NotesFileError {
  const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
  return code === 'ENOENT'
    ? new MissingNotesFileError(path, ['does not exist'])
    : new NotesFileError(path, [`cannot be read (${code})`]);
}
