/**
 * The relay's OTLP trace export (RELAY_OTLP_TRACES_URL): every transaction the relay accepted
 * (past filters, limits and caps) also leaves as OpenTelemetry spans for a collector, or only
 * that way with RELAY_OTLP_ONLY. Since the browser, render and data services all report through
 * the relay, one page load's trace reaches the collector whole.
 */
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

const decoder = new TextDecoder();

function parseEvent(item: EnvelopeItem): JsonObject | undefined {
  try {
    const event: unknown = JSON.parse(decoder.decode(item.payload));
    return event !== null && typeof event === 'object' && !Array.isArray(event)
      ? (event as JsonObject)
      : undefined;
  } catch {
    return undefined;
  }
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
  return {
    only: settings.only,
    exportTransactions(items) {
      for (const item of items) {
        if (!isTransaction(item)) continue;
        const event = parseEvent(item);
        const spans = event && transactionSpans(event);
        if (spans) batcher.push(spans);
      }
    },
    async close(timeoutMs) {
      await batcher.close(timeoutMs);
      http.close();
    },
  };
}

/** `envelope` without its transactions; undefined when nothing else is left. */
export function withoutTransactions(envelope: Envelope): Envelope | undefined {
  const items = envelope.items.filter((item) => !isTransaction(item));
  return items.length > 0 ? { ...envelope, items } : undefined;
}
