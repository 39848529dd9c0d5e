/**
 * Delivers committed changes to watchers in sequence order. Each watcher has a cursor and pulls
 * the change log after it whenever a NOTIFY arrives (from this process or another replica),
 * with a slow poll as a safety net for a lost notification or a dropped LISTEN connection
 * (the listener re-subscribes on its own; the log, not the notifications, says what changed).
 * Every pull first checks that the log still holds the last change the watcher got: after a
 * failover to a server that lacks it, or when the log was trimmed past it, the watcher may have
 * missed changes and gets a RESET instead.
 */
import { ChangeKind } from '@strata/proto';
import {
  CHANGE_CHANNEL,
  changeLogBounds,
  readChangesFrom,
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
  /** Called when a watcher is sent a RESET because the log no longer holds its position. */
  readonly onReset?: (details: { cursor: number; newest: number }) => void;
}

interface Watcher {
  cursor: number;
  /** The change at `cursor` as delivered (undefined until one is read). */
  seen: ChangeRecord | undefined;
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

  /** Whether the log lost the watcher's position (`batch` starts at its cursor). */
  async function lostPosition(watcher: Watcher, batch: readonly ChangeRecord[]): Promise<boolean> {
    if (watcher.cursor === 0) return false;
    const first = batch[0];
    if (first?.sequence === watcher.cursor) {
      const lost = watcher.seen !== undefined && !sameChange(first, watcher.seen);
      watcher.seen = first;
      return lost;
    }
    // Not in the log: fine if it was trimmed with nothing after it missed, lost otherwise
    // (a server that never had it, or history that went on without it).
    const { oldest, newest } = await changeLogBounds(db);
    return newest < watcher.cursor || oldest <= watcher.cursor || watcher.cursor < oldest - 1;
  }

  async function reset(watcher: Watcher): Promise<void> {
    const { newest } = await changeLogBounds(db);
    options.onReset?.({ cursor: watcher.cursor, newest });
    watcher.cursor = newest;
    watcher.seen = undefined;
    watcher.deliver(resetEvent(newest));
  }

  async function pull(watcher: Watcher): Promise<void> {
    if (watcher.pulling) {
      watcher.again = true;
      return;
    }
    watcher.pulling = true;
    try {
      do {
        watcher.again = false;
        let fresh: ChangeRecord[];
        do {
          const batch = await readChangesFrom(db, watcher.cursor, BATCH + 1);
          if (!watchers.has(watcher)) return;
          if (await lostPosition(watcher, batch)) {
            await reset(watcher);
            watcher.again = true;
            break;
          }
          fresh = batch.filter((change) => change.sequence > watcher.cursor);
          for (const change of fresh) {
            if (!watchers.has(watcher)) return;
            watcher.cursor = change.sequence;
            watcher.seen = change;
            watcher.deliver(change);
          }
        } while (fresh.length >= BATCH);
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
      const watcher: Watcher = {
        cursor: newest,
        seen: undefined,
        pulling: false,
        again: false,
        deliver,
        onClose,
      };
      if (afterSequence > 0) {
        // Resumable only if every change after afterSequence is still in the log.
        const resumable = afterSequence <= newest && (oldest === 0 || afterSequence >= oldest - 1);
        if (resumable) watcher.cursor = afterSequence;
        else deliver(resetEvent(newest));
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

/** "You may have missed changes": drop everything cached, continue after `sequence`. */
function resetEvent(sequence: number): FeedEvent {
  return {
    sequence,
    kind: ChangeKind.CHANGE_KIND_RESET,
    itemId: 0,
    tags: [],
    commitTime: new Date(),
  };
}

/** The same committed change (a server that re-used the sequence for another one differs). */
function sameChange(a: ChangeRecord, b: ChangeRecord): boolean {
  return (
    a.sequence === b.sequence &&
    a.kind === b.kind &&
    a.itemId === b.itemId &&
    a.commitTime.getTime() === b.commitTime.getTime()
  );
}
