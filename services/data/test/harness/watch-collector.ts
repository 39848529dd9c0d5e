/**
 * Opens a WatchChanges stream and collects its events so tests can wait for them.
 */
import type { ClientReadableStream } from '@grpc/grpc-js';
import type { WatchChangesResponse } from '@strata/proto';
import type { TestClient } from './catalog-client.js';

/** A running watch. */
export interface WatchCollector {
  readonly events: WatchChangesResponse[];
  /** Resolves when the server has registered the watch, with the sequence it starts after. */
  readonly ready: Promise<number>;
  /** Resolves when the server ends the stream, with the status code (0 = OK). */
  readonly ended: Promise<number>;
  /** Resolves once at least `count` events arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<WatchChangesResponse[]>;
  close(): void;
}

/** Starts watching after `afterSequence`. */
export function collectChanges(client: TestClient, afterSequence = 0): WatchCollector {
  const events: WatchChangesResponse[] = [];
  const stream: ClientReadableStream<WatchChangesResponse> = client.raw.watchChanges({
    afterSequence,
  });
  stream.on('data', (event: WatchChangesResponse) => events.push(event));
  const ended = new Promise<number>((resolve) => {
    stream.on('status', (status: { code: number }) => resolve(status.code));
  });
  stream.on('error', () => undefined); // cancellation at close
  const ready = new Promise<number>((resolve) =>
    stream.once('metadata', (metadata) => resolve(Number(metadata.get('strata-watch-from')[0]))),
  );
  return {
    events,
    ready,
    ended,
    async waitFor(count, timeoutMs = 5000) {
      const until = Date.now() + timeoutMs;
      while (events.length < count) {
        if (Date.now() > until)
          throw new Error(`waited ${timeoutMs} ms for ${count} changes, got ${events.length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return events;
    },
    close: () => stream.cancel(),
  };
}
