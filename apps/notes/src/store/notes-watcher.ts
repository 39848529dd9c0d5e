/**
 * The notes file's change feed: whoever changes the file (another replica, a hand edit, this
 * process), the notes that appeared, changed or went away are reported by tag, so the segment
 * cache drops what it holds of them. It compares the whole list against the last one it
 * reported, so a burst of writes is one report and no change is missed between two looks.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { Note } from '../domain/note.js';
import { NOTES_TAG, noteTag } from '../domain/notes-book.js';
import { notesFileReader, type NotesFileReader } from './notes-file.js';
import { readProblemReporter, type NotesLog } from './notes-log.js';

/** Where the feed reports (the render service's segment cache). */
export interface NotesChangeSubscriber {
  onTags(tags: readonly string[]): Promise<void>;
  onReset(): Promise<void>;
}

export interface NotesWatchOptions {
  /** The notes the app has served so far: changes are reported against these. */
  readonly baseline: readonly Note[];
  readonly log: Pick<NotesLog, 'warn'>;
  /** The file's reader to share (default: one of its own). */
  readonly reader?: NotesFileReader;
  /** How long to gather events before looking at the file. */
  readonly debounceMs?: number;
  /** A look every so often whatever the events say (file systems that send none, lost events). */
  readonly pollMs?: number;
}

/** Watches `path` until `stop()`. */
export function watchNotesFile(
  path: string,
  subscriber: NotesChangeSubscriber,
  options: NotesWatchOptions,
): { stop(): void } {
  const name = basename(path);
  const reader = options.reader ?? notesFileReader(path);
  const problems = readProblemReporter(options.log, path, 'notes: cannot read the notes file');
  let reported = fingerprints(options.baseline);
  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  // One look at a time; a request during a look runs one more after it.
  let looking: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  // Versions of the file went by unseen (it could not be read, or the watch was lost): what
  // they held may be cached, and no diff can name it.
  let blind = false;
  // Whether the watch works, so its loss is reported once, not at every attempt to re-arm it.
  let watching = true;

  async function look(): Promise<void> {
    let notes: readonly Note[];
    try {
      notes = await reader.read();
    } catch (error) {
      // Missing or broken for now: reads keep the last good list; once whole again, a reset.
      problems.failed(error);
      blind = true;
      return;
    }
    problems.recovered();
    const current = fingerprints(notes);
    const changed = changedIds(reported, current);
    if (stopped) return;
    if (blind) await subscriber.onReset();
    else if (changed.length > 0)
      await subscriber.onTags([NOTES_TAG, ...changed.map((id) => noteTag(id))]);
    // Only once reported: a report that failed is made again at the next look.
    reported = current;
    blind = false;
  }

  function schedule(): void {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      if (looking) {
        again = true;
        return;
      }
      looking = look()
        .catch((error: unknown) =>
          options.log.warn({ file: path, error: String(error) }, 'notes: change report failed'),
        )
        .finally(() => {
          looking = undefined;
          if (again) {
            again = false;
            schedule();
          }
        });
    }, options.debounceMs ?? 50);
    timer.unref();
  }

  /** Watches the directory: an atomic write renames a new file over the old one. */
  function arm(): void {
    if (stopped || watcher) return;
    try {
      watcher = watch(dirname(path), { persistent: false }, (_event, file) => {
        if (file === null || file === name) schedule();
      });
      watcher.on('error', lost);
      watching = true;
    } catch (error) {
      lost(error);
    }
  }

  /** Until the poll re-arms the watch, changes are seen at its pace, and some may pass unseen. */
  function lost(error: unknown): void {
    watcher?.close();
    watcher = undefined;
    if (!watching) return;
    watching = false;
    blind = true;
    options.log.warn(
      { file: path, error: String(error) },
      'notes: cannot watch the notes file; looking at it every poll',
    );
  }

  const poll = setInterval(() => {
    arm();
    schedule();
  }, options.pollMs ?? 2_000);
  poll.unref();
  arm();
  // Changes made between the baseline's read and the watch's start.
  schedule();

  return {
    stop() {
      stopped = true;
      clearInterval(poll);
      clearTimeout(timer);
      watcher?.close();
    },
  };
}

/** Each note's id and content. */
function fingerprints(notes: readonly Note[]): Map<number, string> {
  return new Map(notes.map((note) => [note.id, JSON.stringify(note)]));
}

/** Ids that appeared, went away or changed between two lists. */
function changedIds(before: Map<number, string>, after: Map<number, string>): number[] {
  const ids = new Set([...before.keys(), ...after.keys()]);
  return [...ids].filter((id) => before.get(id) !== after.get(id)).sort((a, b) => a - b);
}
