/**
 * Prometheus metrics of one relay instance (own registry, so tests can build several apps).
 * Gauges about the spool, in-flight sends and rate limits are computed at scrape time.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DropReason } from './outcomes/drop-reason.js';
import type { RateLimitState } from './rate-limits/rate-limit-state.js';
import type { SpoolStats } from './spool/spool.js';

/** Live values read at scrape time. */
export interface MetricSources {
  readonly spoolStats: () => SpoolStats;
  readonly inFlight: () => number;
  readonly rateLimits: RateLimitState;
  readonly now: () => number;
  /** Whether the shared limits' Redis answers; undefined without one (then no series). */
  readonly sharedLimitsConnected: () => boolean | undefined;
}

/** The relay's metrics. */
export interface RelayMetrics {
  readonly registry: Registry;
  accepted(dsnKey: string): void;
  rejected(code: string): void;
  dropped(reason: DropReason, category: string, quantity: number): void;
  upstream(status: number | 'network-error', durationMs: number): void;
  /** Spans the OTLP collector accepted. */
  otlpExported(spans: number): void;
  /** Spans that did not reach the OTLP collector, by reason. */
  otlpDropped(reason: string, spans: number): void;
  /** A shared request limit decided without Redis (`limit`: address or key). */
  limitedLocally(limit: 'address' | 'key'): void;
  /** An envelope answered as accepted but not spooled again: its event was accepted before. */
  duplicate(dsnKey: string): void;
  /** An event id looked up or recorded in this replica only, because Redis did not answer. */
  dedupedLocally(): void;
}

/** Creates the registry and metrics. */
export function createMetrics(sources: MetricSources, withDefaults = false): RelayMetrics {
  const registry = new Registry();
  // Standard names (process_*, nodejs_*), so stock Node.js dashboards work.
  if (withDefaults) collectDefaultMetrics({ register: registry });
  const accepted = new Counter({
    name: 'relay_envelopes_accepted_total',
    help: 'Envelopes accepted (spooled and acknowledged), by DSN (projectId:publicKey)',
    labelNames: ['dsn'],
    registers: [registry],
  });
  const rejected = new Counter({
    name: 'relay_requests_rejected_total',
    help: 'Requests answered with an error, by error code',
    labelNames: ['code'],
    registers: [registry],
  });
  const dropped = new Counter({
    name: 'relay_items_dropped_total',
    help: 'Items dropped after acceptance, by drop reason and data category',
    labelNames: ['reason', 'category'],
    registers: [registry],
  });
  const upstreamRequests = new Counter({
    name: 'relay_upstream_requests_total',
    help: 'Upstream requests by HTTP status (or network-error)',
    labelNames: ['status'],
    registers: [registry],
  });
  const upstreamLatency = new Histogram({
    name: 'relay_upstream_duration_seconds',
    help: 'Upstream request latency',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  const otlpExported = new Counter({
    name: 'relay_otlp_spans_exported_total',
    help: 'Spans the OTLP traces endpoint accepted',
    registers: [registry],
  });
  const otlpDropped = new Counter({
    name: 'relay_otlp_spans_dropped_total',
    help: 'Spans that did not reach the OTLP traces endpoint, by reason',
    labelNames: ['reason'],
    registers: [registry],
  });
  const localDecisions = new Counter({
    name: 'relay_shared_limit_local_decisions_total',
    help: 'Requests a shared limit decided with this replica’s share because Redis did not answer',
    labelNames: ['limit'],
    registers: [registry],
  });
  const duplicates = new Counter({
    name: 'relay_envelopes_duplicate_total',
    help: 'Envelopes answered as accepted but not spooled again: their event id was accepted within RELAY_DEDUPE_WINDOW, by DSN',
    labelNames: ['dsn'],
    registers: [registry],
  });
  const localDedupe = new Counter({
    name: 'relay_dedupe_local_only_total',
    help: 'Event ids looked up or recorded in this replica only, because the shared Redis did not answer',
    registers: [registry],
  });
  const spoolGauge = (name: string, help: string, read: (stats: SpoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(sources.spoolStats()));
      },
    });
  spoolGauge('relay_spool_bytes', 'Bytes of spool segment files on disk', (s) => s.bytes);
  spoolGauge('relay_spool_max_bytes', 'Configured spool bound', (s) => s.maxBytes);
  spoolGauge(
    'relay_spool_envelopes',
    'Envelopes not yet delivered (queued + in flight)',
    (s) => s.pending,
  );
  spoolGauge('relay_spool_oldest_age_seconds', 'Age of the oldest undelivered envelope', (s) =>
    s.oldestReceivedAt === undefined ? 0 : (sources.now() - s.oldestReceivedAt) / 1000,
  );
  registry.registerMetric(
    new Gauge({
      name: 'relay_upstream_in_flight',
      help: 'Envelopes currently being sent upstream',
      registers: [],
      collect() {
        this.set(sources.inFlight());
      },
    }),
  );
  registry.registerMetric(
    new Gauge({
      name: 'relay_rate_limit_seconds',
      help: 'Remaining seconds of active upstream rate limits, by DSN and category',
      labelNames: ['dsn', 'category'],
      registers: [],
      collect() {
        this.reset();
        const now = sources.now();
        for (const [dsn, limits] of sources.rateLimits.entries(now)) {
          for (const [category, until] of Object.entries(limits)) {
            this.set({ dsn, category }, Math.max(0, (until - now) / 1000));
          }
        }
      },
    }),
  );
  registry.registerMetric(
    new Gauge({
      name: 'relay_shared_limits_connected',
      help: 'Whether the Redis behind the shared request limits is connected (1) or not (0)',
      registers: [],
      collect() {
        const connected = sources.sharedLimitsConnected();
        if (connected === undefined) this.reset();
        else this.set(connected ? 1 : 0);
      },
    }),
  );
  return {
    registry,
    accepted: (dsn) => accepted.inc({ dsn }),
    rejected: (code) => rejected.inc({ code }),
    dropped: (reason, category, quantity) => dropped.inc({ reason, category }, quantity),
    upstream(status, durationMs) {
      upstreamRequests.inc({ status: String(status) });
      upstreamLatency.observe(durationMs / 1000);
    },
    limitedLocally: (limit) => localDecisions.inc({ limit }),
    duplicate: (dsn) => duplicates.inc({ dsn }),
    dedupedLocally: () => localDedupe.inc(),
    otlpExported: (spans) => otlpExported.inc(spans),
    otlpDropped: (reason, spans) => otlpDropped.inc({ reason }, spans),
  };
}
