/**
 * Hands spans to an OTLP collector in batches, beside the relay's own delivery: spans wait in a
 * bounded queue (past `maxQueuedSpans` the oldest go, counted), leave when a batch is full or
 * `intervalMs` after the first one waited, one request at a time, and a request that fails with
 * a network error, 429 or 5xx is tried again with a growing pause, up to `maxAttempts`. Exporting
 * never slows an ingest answer: `push` only queues. The request itself is injected (otlp-http.ts).
 */
import type { OtlpResourceSpans } from './transaction-spans.js';

/** Sends one request body; resolves with the HTTP status (throws on a network error). */
export type SendSpans = (body: string) => Promise<number>;

/** Why spans did not reach the collector. */
export type SpanDropReason = 'queue-full' | 'rejected' | 'unreachable' | 'shutdown';

export interface SpanBatcherOptions {
  readonly send: SendSpans;
  readonly maxQueuedSpans: number;
  readonly batchSpans: number;
  readonly intervalMs: number;
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  readonly onExported: (spans: number) => void;
  readonly onDropped: (reason: SpanDropReason, spans: number) => void;
  readonly onError: (message: string) => void;
}

export interface SpanBatcher {
  push(resourceSpans: OtlpResourceSpans): void;
  /** Sends what is queued within `timeoutMs`; what is left is dropped and counted. */
  close(timeoutMs: number): Promise<void>;
}

const spanCount = (entry: OtlpResourceSpans): number =>
  entry.scopeSpans.reduce((sum, scope) => sum + scope.spans.length, 0);

const RETRYABLE = (status: number) => status === 429 || status >= 500;

export function createSpanBatcher(options: SpanBatcherOptions): SpanBatcher {
  const queue: OtlpResourceSpans[] = [];
  let queued = 0;
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> | undefined;
  let closed = false;

  function takeBatch(): { entries: OtlpResourceSpans[]; spans: number } {
    const entries: OtlpResourceSpans[] = [];
    let spans = 0;
    while (queue.length > 0 && (entries.length === 0 || spans < options.batchSpans)) {
      const entry = queue.shift()!;
      entries.push(entry);
      spans += spanCount(entry);
    }
    queued -= spans;
    return { entries, spans };
  }

  async function sendBatch(entries: OtlpResourceSpans[], spans: number): Promise<void> {
    const body = JSON.stringify({ resourceSpans: entries });
    for (let attempt = 1; ; attempt++) {
      let status: number | undefined;
      try {
        status = await options.send(body);
      } catch (error) {
        options.onError(`OTLP export failed: ${error instanceof Error ? error.message : error}`);
      }
      if (status !== undefined && status >= 200 && status < 300) return options.onExported(spans);
      if (status !== undefined && !RETRYABLE(status)) {
        options.onError(`OTLP collector answered ${status}`);
        return options.onDropped('rejected', spans);
      }
      if (attempt >= options.maxAttempts || closed)
        return options.onDropped(status === undefined ? 'unreachable' : 'rejected', spans);
      await new Promise((resolve) => setTimeout(resolve, options.retryBaseMs * 2 ** (attempt - 1)));
    }
  }

  /** Sends batches one after another until the queue is empty. */
  function drain(): void {
    if (sending || queue.length === 0) return;
    clearTimeout(timer);
    timer = undefined;
    sending = (async () => {
      while (queue.length > 0) {
        const { entries, spans } = takeBatch();
        await sendBatch(entries, spans);
      }
    })().finally(() => {
      sending = undefined;
    });
  }

  return {
    push(resourceSpans) {
      if (closed) return options.onDropped('shutdown', spanCount(resourceSpans));
      queue.push(resourceSpans);
      queued += spanCount(resourceSpans);
      while (queued > options.maxQueuedSpans && queue.length > 1) {
        const oldest = queue.shift()!;
        queued -= spanCount(oldest);
        options.onDropped('queue-full', spanCount(oldest));
      }
      if (queued >= options.batchSpans) drain();
      else if (!timer && !sending) {
        timer = setTimeout(drain, options.intervalMs);
        timer.unref();
      }
    },
    async close(timeoutMs) {
      const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
      drain();
      // A batch in flight, then whatever queued behind it.
      await Promise.race([
        (async () => {
          while (sending) {
            await sending;
            drain();
          }
        })(),
        deadline,
      ]);
      closed = true;
      clearTimeout(timer);
      if (queued > 0) options.onDropped('shutdown', queued);
      queue.length = 0;
      queued = 0;
    },
  };
}
