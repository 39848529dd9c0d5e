/**
 * An inter-process lock on a file, so several processes (render replicas sharing a volume) can
 * read, change and replace it in turn. proper-lockfile takes it by creating `<file>.lock` with
 * mkdir (atomic on local file systems) and refreshes the directory's mtime while it is held, so
 * the lock of a process that died goes stale and is taken over.
 */
import { lock } from 'proper-lockfile';
import type { NotesLog } from './notes-log.js';

/** Where lock problems are reported (the app's logger). */
type LockLog = Pick<NotesLog, 'warn'>;

/** A holder that stopped refreshing this long ago is taken to be gone. */
const STALE_MS = 10_000;

/** How long to wait for another holder: longer than a stale lock lives. */
const WAIT_MS = 20_000;

/** Runs `work` holding the lock on `path`; the file itself need not exist. */
export async function withFileLock<T>(
  path: string,
  work: () => Promise<T>,
  log: LockLog,
): Promise<T> {
  const release = await acquire(path, log);
  try {
    return await work();
  } finally {
    // The work is done (the file replaced or not): a failed release must not undo its answer.
    await release().catch((error: unknown) =>
      log.warn({ file: path, error: String(error) }, 'notes: could not release the file lock'),
    );
  }
}

/**
 * Takes the lock, retrying only while another process holds it (the library's own retries
 * would also retry a missing directory or a read-only volume, which waiting does not fix).
 */
async function acquire(path: string, log: LockLog): Promise<() => Promise<void>> {
  const until = Date.now() + WAIT_MS;
  for (let delay = 5; ; delay = Math.min(delay * 1.5, 250)) {
    try {
      return await lock(path, {
        // No realpath: the file may not exist yet (it is created from the seed under this lock).
        realpath: false,
        stale: STALE_MS,
        // The library's default throws from a timer, which would end the process.
        onCompromised: (error) =>
          log.warn(
            { file: path, error: error.message },
            'notes: lost the lock on the notes file (held past its stale time, or removed)',
          ),
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || Date.now() > until) throw error;
      // Jittered, so waiting processes do not retry in step.
      await new Promise((resolve) => setTimeout(resolve, delay * (0.5 + Math.random())));
    }
  }
}
