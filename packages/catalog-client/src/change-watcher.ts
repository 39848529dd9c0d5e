/**
 * Follows the data service's WatchChanges stream and turns every committed change into a tag
 * invalidation, so writes made by anyone (other services, scripts, other replicas) reach the
 * cache. After a disconnect it resumes after the last sequence it handled, with jittered
 * backoff; a CHANGE_KIND_RESET (resume point gone) or a refused resume drops the whole build.
 */
import { status, type Metadata } from '@grpc/grpc-js';
import { ChangeKind, type WatchChangesResponse } from '@strata/proto';
import type { CatalogClient } from './catalog-client.js';
import {
  backoffDelay,
  type GrpcCallError as CatalogCallError,
  type ServerStreamCall,
} from '@strata/grpc-transport';

/** What the watcher needs. */
export interface ChangeWatcherDeps {
  readonly client: Pick<CatalogClient, 'watchChanges'>;
  /** Invalidate these tags (must not throw; failures are the callee's business). */
  readonly onTags: (tags: readonly string[]) => Promise<void>;
  /** Changes may have been missed: drop everything derived from data. */
  readonly onReset: () => Promise<void>;
  readonly logger: {
    info(details: object, message: string): void;
    warn(details: object, message: string): void;
  };
  readonly random: () => number;
  readonly backoff?: { readonly baseMs: number; readonly capMs: number };
}

/** A running subscription. */
export interface ChangeWatcher {
  start(): void;
  stop(): void;
  /** The last sequence handled (undefined before the first answer). */
  lastSequence(): number | undefined;
  /** True while a stream is open. */
  connected(): boolean;
}

// Events waiting for their invalidation beyond which the stream is paused (backpressure).
const PAUSE_AT = 1000;
const RESUME_AT = 100;

/** Creates a watcher (not started). */
export function createChangeWatcher(deps: ChangeWatcherDeps): ChangeWatcher {
  const backoff = deps.backoff ?? { baseMs: 100, capMs: 5000 };
  let last: number | undefined;
  let stopped = true;
  let open = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let call: ServerStreamCall<WatchChangesResponse> | undefined;

  function schedule(): void {
    if (stopped) return;
    const delay = backoffDelay(
      { attempts: Infinity, baseDelayMs: backoff.baseMs, maxDelayMs: backoff.capMs },
      failures + 1,
      deps.random,
    );
    failures += 1;
    timer = setTimeout(connect, delay);
  }

  function connect(): void {
    if (stopped) return;
    let queue = Promise.resolve();
    let queued = 0;
    let ended = false;
    const stream = deps.client.watchChanges({ afterSequence: last ?? 0 });
    call = stream;
    const finish = (error?: CatalogCallError) => {
      if (ended) return;
      ended = true;
      open = false;
      if (stopped) return;
      if (error?.code === status.INVALID_ARGUMENT) {
        // The service refused our resume point: start over from now, and drop what we had.
        deps.logger.warn({ after: last }, 'change feed refused the resume point; dropping cache');
        last = undefined;
        queue = queue.then(deps.onReset);
      } else if (error)
        deps.logger.warn({ code: error.code, after: last }, 'change feed disconnected; resuming');
      void queue.then(schedule);
    };
    const handle = async (event: WatchChangesResponse) => {
      if (event.kind === ChangeKind.CHANGE_KIND_RESET) {
        deps.logger.warn({ after: last }, 'change feed reset; dropping cache');
        await deps.onReset();
      } else if (event.tags.length > 0) await deps.onTags(event.tags);
      last = event.sequence;
    };

    stream.on('metadata', (metadata: Metadata) => {
      open = true;
      failures = 0;
      const from = Number(metadata.get('strata-watch-from')[0]);
      // On a first connection, the service names the point we are covered from.
      if (last === undefined && Number.isSafeInteger(from)) last = from;
    });
    stream.on('data', (event: WatchChangesResponse) => {
      queued += 1;
      if (queued >= PAUSE_AT) stream.pause();
      queue = queue.then(() =>
        handle(event).finally(() => {
          queued -= 1;
          if (queued <= RESUME_AT && stream.isPaused()) stream.resume();
        }),
      );
    });
    stream.on('error', (error: CatalogCallError) => finish(error));
    stream.on('end', () => finish());
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      deps.logger.info({}, 'following the data service change feed');
      connect();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      call?.cancel();
      open = false;
    },
    lastSequence: () => last,
    connected: () => open,
  };
}
