/**
 * The app's logger as the notes store uses it, and one way to report a file that cannot be
 * read: it is read on every request and every poll, and one line should say so, not each read.
 */

/** The app's logger, as far as the store uses it. */
export interface NotesLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** Reports read failures of `path`: each new one once, and again after a read that worked. */
export function readProblemReporter(
  log: Pick<NotesLog, 'warn'>,
  path: string,
  message: string,
): { failed(error: unknown): void; recovered(): void } {
  let last: string | undefined;
  return {
    failed(error) {
      const text = String(error);
      if (text !== last) log.warn({ file: path, error: text }, message);
      last = text;
    },
    recovered() {
      last = undefined;
    },
  };
}
