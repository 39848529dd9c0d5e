/**
 * The relay's OTLP trace export (RELAY_OTLP_TRACES_URL): every transaction the relay accepted
 * (past filters, limits and caps) also leaves as OpenTelemetry spans for a collector, or only
 * that way with RELAY_OTLP_ONLY. Since the browser, render and data services all report through
 * the relay, one page load's trace reaches the collector whole.
 */
import { parseJson } from '../envelope/bounded-json.js';
import type { Envelope, EnvelopeItem, JsonObject } from '../envelope/envelope.js';
import { createOtlpHttp } from './otlp-http.js';
import { createSpanBatcher, type SpanDropReason } from './span-batcher.js';
import { transactionSpans } from './transaction-spans.js';

/** What the ingest path calls. */
export interface TraceExport {
  /** Transactions are exported only, never forwarded upstream. */
  readonly only: boolean;
  /** Queues the spans of `items`' transactions (other items are ignored). */
  exportTransactions(items: readonly EnvelopeItem[]): void;
  /** Sends what waits (shutdown, while requests may still finish). */
  flush(timeoutMs: number): Promise<void>;
  /** Sends what is left within `timeoutMs`, then drops the rest and closes the connections. */
  close(timeoutMs: number): Promise<void>;
}

export interface TraceExportSettings {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly only: boolean;
  readonly timeoutMs: number;
}

export interface TraceExportObserver {
  exported(spans: number): void;
  dropped(reason: SpanDropReason, spans: number): void;
  warn(message: string): void;
}

/** Whether an item is a transaction (what becomes spans). */
export const isTransaction = (item: EnvelopeItem): boolean => item.header.type === 'transaction';

function parseEvent(payload: Uint8Array): JsonObject | undefined {
  const parsed = parseJson(payload);
  const event = parsed.ok ? parsed.value : undefined;
  return event !== null && typeof event === 'object' && !Array.isArray(event)
    ? (event as JsonObject)
    : undefined;
}

export function createTraceExport(
  settings: TraceExportSettings,
  observer: TraceExportObserver,
): TraceExport {
  const http = createOtlpHttp({
    url: settings.url,
    headers: settings.headers,
    timeoutMs: settings.timeoutMs,
  });
  let lastWarned = 0;
  const batcher = createSpanBatcher({
    send: http.send,
    maxQueuedSpans: 20_000,
    batchSpans: 512,
    intervalMs: 1000,
    maxAttempts: 4,
    retryBaseMs: 500,
    onExported: observer.exported,
    onDropped: observer.dropped,
    onError(message) {
      // A collector that is down fails every batch: one line every 10 s is enough.
      if (Date.now() - lastWarned < 10_000) return;
      lastWarned = Date.now();
      observer.warn(message);
    },
  });
  // Payloads are parsed and converted after the ingest answer has gone (setImmediate), so an
  // export costs the request nothing but a reference to its bytes.
  let pending: Uint8Array[] = [];
  const convertPending = () => {
    const payloads = pending;
    pending = [];
    for (const payload of payloads) {
      const event = parseEvent(payload);
      const spans = event && transactionSpans(event);
      if (spans) batcher.push(spans);
    }
  };
  return {
    only: settings.only,
    exportTransactions(items) {
      for (const item of items) {
        if (!isTransaction(item)) continue;
        if (pending.length === 0) setImmediate(convertPending);
        pending.push(item.payload);
      }
    },
    async flush(timeoutMs) {
      convertPending();
      await batcher.flush(timeoutMs);
    },
    async close(timeoutMs) {
      convertPending();
      await batcher.close(timeoutMs);
      await http.close();
    },
  };
}

/** `envelope` without its transactions (itself if it has none); undefined if nothing is left. */
export function withoutTransactions(envelope: Envelope): Envelope | undefined {
  const items = envelope.items.filter((item) => !isTransaction(item));
  if (items.length === envelope.items.length) return envelope;
  return items.length > 0 ? { ...envelope, items } : undefined;
}
