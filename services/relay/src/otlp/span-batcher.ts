/**
 * Hands spans to an OTLP collector in batches, beside the relay's own delivery: spans wait in a
 * bounded queue (past `maxQueuedSpans` the oldest go, counted), leave when a batch is full or
 * `intervalMs` after the first one waited, one request at a time, and a request that fails with
 * a network error, 429 or 5xx is tried again after a growing, jittered pause, up to `maxAttempts`. Exporting
 * never slows an ingest answer: `push` only queues. The request itself is injected (otlp-http.ts).
 */
import { retryDelayMs } from '../upstream/retry-policy.js';
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
  /** Sends what is queued, and what arrives meanwhile, without waiting for a batch to fill. */
  flush(timeoutMs: number): Promise<void>;
  /** Flushes within `timeoutMs`, then stops: what is left, or pushed later, is dropped. */
  close(timeoutMs: number): Promise<void>;
}

const spanCount = (entry: OtlpResourceSpans): number =>
  entry.scopeSpans.reduce((sum, scope) => sum + scope.spans.length, 0);

/** The longest pause between two tries of one batch (the upstream's policy, jittered). */
const MAX_RETRY_PAUSE_MS = 30_000;

const isRetryable = (status: number) => status === 429 || status >= 500;

/** Resolves after `ms`, or at once when `closing` fires (an unref'd timer: never holds exit). */
function pause(ms: number, closing: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  return Promise.race([elapsed, closing]).finally(() => clearTimeout(timer));
}

export function createSpanBatcher(options: SpanBatcherOptions): SpanBatcher {
  const queue: OtlpResourceSpans[] = [];
  let queued = 0;
  let timer: NodeJS.Timeout | undefined;
  let sending: Promise<void> | undefined;
  let closed = false;
  let markClosed!: () => void;
  const closing = new Promise<void>((resolve) => (markClosed = resolve));
  // Functions, not conditions: sends and a close change these across the awaits below.
  const hasWork = () => queue.length > 0 && !closed;

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
      if (status !== undefined && !isRetryable(status)) {
        options.onError(`OTLP collector answered ${status}`);
        return options.onDropped('rejected', spans);
      }
      if (closed) return options.onDropped('shutdown', spans);
      if (attempt >= options.maxAttempts)
        return options.onDropped(status === undefined ? 'unreachable' : 'rejected', spans);
      const delay = retryDelayMs(
        {
          baseMs: options.retryBaseMs,
          maxMs: MAX_RETRY_PAUSE_MS,
          maxAttempts: options.maxAttempts,
        },
        attempt,
        Math.random,
      );
      await pause(delay, closing);
      // A close cut the pause short: the deadline has passed.
      if (closed) return options.onDropped('shutdown', spans);
    }
  }

  /** Sends batches one after another until the queue is empty. */
  function drain(): void {
    if (sending || queue.length === 0 || closed) return;
    clearTimeout(timer);
    timer = undefined;
    sending = (async () => {
      while (hasWork()) {
        const { entries, spans } = takeBatch();
        await sendBatch(entries, spans);
      }
    })().finally(() => {
      sending = undefined;
    });
  }

  async function flush(timeoutMs: number): Promise<void> {
    let timedOut = false;
    const deadline = pause(timeoutMs, closing).then(() => (timedOut = true));
    const waiting = () => !timedOut && !closed && (sending !== undefined || queue.length > 0);
    while (waiting()) {
      drain();
      await Promise.race([sending, deadline]);
    }
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
    flush,
    async close(timeoutMs) {
      await flush(timeoutMs);
      closed = true;
      markClosed();
      clearTimeout(timer);
      if (queued > 0) options.onDropped('shutdown', queued);
      queue.length = 0;
      queued = 0;
    },
  };
}
