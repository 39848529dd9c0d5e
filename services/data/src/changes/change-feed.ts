/**
 * Delivers committed changes to watchers in sequence order. Each watcher has a cursor and pulls
 * the change log after it whenever a NOTIFY arrives (from this process or another replica),
 * with a slow poll as a safety net for a lost notification or a dropped LISTEN connection.
 */
import { ChangeKind } from '@strata/proto';
import {
  CHANGE_CHANNEL,
  changeLogBounds,
  readChangesAfter,
  type ChangeRecord,
} from '../storage/change-log.js';
import type { Database } from '../storage/database.js';

const BATCH = 500;

/** A change as delivered to a watcher (RESET means "you may have missed changes"). */
export type FeedEvent = ChangeRecord;

/** Options for the feed. */
export interface ChangeFeedOptions {
  /** Safety-net poll interval in ms. */
  readonly pollIntervalMs?: number;
  /** Called when a pull fails (the watcher stays subscribed and retries on the next wake). */
  readonly onError?: (error: unknown) => void;
}

interface Watcher {
  cursor: number;
  pulling: boolean;
  again: boolean;
  readonly deliver: (event: FeedEvent) => void;
  readonly onClose: () => void;
}

/** The running feed. */
export interface ChangeFeed {
  /**
   * Streams changes after `afterSequence` (0: from now on). Resolves once registered, with the
   * sequence delivery starts after and an unsubscribe function.
   */
  watch(
    afterSequence: number,
    deliver: (event: FeedEvent) => void,
    onClose?: () => void,
  ): Promise<{ from: number; stop: () => void }>;
  /** Number of current watchers. */
  size(): number;
  /** Stops listening and polling, and tells every watcher (so streams end cleanly). */
  close(): Promise<void>;
}

/** Starts the feed: LISTENs for change notifications and polls as a fallback. */
export async function startChangeFeed(
  db: Database,
  options: ChangeFeedOptions = {},
): Promise<ChangeFeed> {
  const watchers = new Set<Watcher>();
  const onError = options.onError ?? (() => undefined);

  async function pull(watcher: Watcher): Promise<void> {
    if (watcher.pulling) {
      watcher.again = true;
      return;
    }
    watcher.pulling = true;
    try {
      do {
        watcher.again = false;
        let batch: ChangeRecord[];
        do {
          batch = await readChangesAfter(db, watcher.cursor, BATCH);
          for (const change of batch) {
            if (!watchers.has(watcher)) return;
            watcher.cursor = change.sequence;
            watcher.deliver(change);
          }
        } while (batch.length === BATCH);
      } while (watcher.again);
    } catch (error) {
      onError(error);
    } finally {
      watcher.pulling = false;
    }
  }

  const wakeAll = () => {
    for (const watcher of watchers) void pull(watcher);
  };

  const unlisten = await db.listen(CHANGE_CHANNEL, wakeAll).catch((error: unknown) => {
    onError(error);
    return async () => undefined;
  });
  const poll = setInterval(wakeAll, options.pollIntervalMs ?? 1000);
  poll.unref();

  return {
    async watch(afterSequence, deliver, onClose = () => undefined) {
      const { oldest, newest } = await changeLogBounds(db);
      const watcher: Watcher = { cursor: newest, pulling: false, again: false, deliver, onClose };
      if (afterSequence > 0) {
        // Resumable only if every change after afterSequence is still in the log.
        const resumable = afterSequence <= newest && (oldest === 0 || afterSequence >= oldest - 1);
        if (resumable) watcher.cursor = afterSequence;
        else
          deliver({
            sequence: newest,
            kind: ChangeKind.CHANGE_KIND_RESET,
            itemId: 0,
            tags: [],
            commitTime: new Date(),
          });
      }
      const from = watcher.cursor;
      watchers.add(watcher);
      void pull(watcher);
      return {
        from,
        stop: () => {
          watchers.delete(watcher);
        },
      };
    },
    size: () => watchers.size,
    async close() {
      clearInterval(poll);
      const closing = [...watchers];
      watchers.clear();
      for (const watcher of closing) watcher.onClose();
      await unlisten();
    },
  };
}
