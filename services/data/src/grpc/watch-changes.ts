/**
 * WatchChanges: streams the change feed to one caller until it cancels or the server stops.
 * Response headers are sent once the watch is registered (`strata-watch-from` names the first
 * sequence it will deliver after), so a client knows from when it is covered.
 * A watcher too slow to drain its buffer is cut off; it can resume by sequence.
 */
import { Metadata, status, type handleServerStreamingCall } from '@grpc/grpc-js';
import type { WatchChangesRequest, WatchChangesResponse } from '@strata/proto';
import type { Logger } from 'pino';
import type { ChangeFeed } from '../changes/change-feed.js';
import { toGrpcError } from './to-grpc-error.js';

// A watcher that lets this many bytes pile up unread is cut off; it can resume by sequence.
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** Builds the WatchChanges handler over the feed. */
export function createWatchChangesHandler(
  feed: ChangeFeed,
  logger: Logger,
): handleServerStreamingCall<WatchChangesRequest, WatchChangesResponse> {
  return (call) => {
    let unsubscribe: (() => void) | undefined;
    let ended = false;
    const end = () => {
      ended = true;
      unsubscribe?.();
    };
    call.on('cancelled', end);
    call.on('close', end);
    call.on('error', end);

    const after = call.request.afterSequence;
    if (!Number.isSafeInteger(after) || after < 0) {
      call.emit('error', {
        code: status.INVALID_ARGUMENT,
        details: 'after_sequence must not be negative.',
      });
      return;
    }
    // When the service stops, end the stream with OK: the watcher resumes by sequence elsewhere.
    const closeStream = () => {
      if (ended) return;
      ended = true;
      call.end();
    };
    feed
      .watch(
        after,
        (change) => {
          if (ended) return;
          call.write({
            sequence: change.sequence,
            kind: change.kind,
            tags: [...change.tags],
            itemId: change.itemId,
            commitTime: change.commitTime,
          });
          if (call.writableLength > MAX_BUFFERED_BYTES) {
            logger.warn({ after: change.sequence }, 'watcher too slow; closing its stream');
            call.emit('error', {
              code: status.RESOURCE_EXHAUSTED,
              details: 'Watcher fell too far behind; resume from your last sequence.',
            });
            end();
          }
        },
        closeStream,
      )
      .then(
        ({ stop, from }) => {
          if (ended) {
            stop();
            return;
          }
          unsubscribe = stop;
          const headers = new Metadata();
          headers.set('strata-watch-from', String(from));
          call.sendMetadata(headers);
        },
        (error: unknown) => {
          const { serviceError } = toGrpcError(error);
          logger.error({ err: error }, 'WatchChanges failed to start');
          call.emit('error', serviceError);
        },
      );
  };
}
