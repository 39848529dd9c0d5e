/**
 * The trace export from the relay's config (RELAY_OTLP_*), reporting into its metrics and log;
 * undefined when no OTLP endpoint is configured.
 */
import type { RelayConfig } from '../config.js';
import type { RelayMetrics } from '../metrics.js';
import { createTraceExport, type TraceExport } from './trace-export.js';

type Log = { warn(details: object, message: string): void };

/** RELAY_OTLP_HEADERS' `name=value` entries (the config checked their shape) as headers. */
export function otlpHeaders(entries: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const entry of entries) {
    const equals = entry.indexOf('=');
    headers[entry.slice(0, equals).trim().toLowerCase()] = entry.slice(equals + 1).trim();
  }
  return headers;
}

export function openTraceExport(
  config: RelayConfig,
  metrics: Pick<RelayMetrics, 'otlpExported' | 'otlpDropped'>,
  log: Log,
): TraceExport | undefined {
  const url = config.RELAY_OTLP_TRACES_URL;
  // The config refuses RELAY_OTLP_ONLY without an endpoint.
  if (!url) return undefined;
  return createTraceExport(
    {
      url,
      headers: otlpHeaders(config.RELAY_OTLP_HEADERS),
      only: config.RELAY_OTLP_ONLY,
      timeoutMs: config.RELAY_OTLP_TIMEOUT,
    },
    {
      exported: metrics.otlpExported,
      dropped: metrics.otlpDropped,
      // Never the headers: they may hold the collector's key.
      warn: (message) => log.warn({ endpoint: new URL(url).host }, message),
    },
  );
}
