/**
 * The relay's delivery side, built from its config: the spool, the upstream sender, the
 * forwarder that drains the spool, and the drop outcomes (recorded by the forwarder and the
 * intake) spooled as client reports on an interval.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { RelayConfig } from './config.js';
import { publicDsnFor, type DsnRegistry } from './dsn/dsn-registry.js';
import type { RelayMetrics } from './metrics.js';
import { clientReportEnvelope, createClientReportAggregator } from './outcomes/client-reports.js';
import { createOutcomeSink, type OutcomeSink } from './outcomes/outcome-sink.js';
import type { RateLimitState } from './rate-limits/rate-limit-state.js';
import { createSpool, type RecoveryReport, type Spool } from './spool/spool.js';
import { createForwarder, type Forwarder } from './upstream/forwarder.js';
import { createHttpSend, type SendEnvelope } from './upstream/http-send.js';

/** What the delivery side is built from besides the config. */
export interface DeliveryParts {
  /** Opened. */
  readonly spool: Spool;
  /** Replaces the HTTP sender. */
  readonly send: SendEnvelope | undefined;
  readonly registry: DsnRegistry;
  readonly rateLimits: RateLimitState;
  readonly metrics: RelayMetrics;
  readonly log: FastifyBaseLogger;
  readonly userAgent: string;
  readonly now: () => number;
  readonly random: () => number;
}

/** The built delivery side. */
export interface Delivery {
  readonly forwarder: Forwarder;
  /** Where drops are recorded, by the intake too. */
  readonly outcomes: OutcomeSink;
  /** Turns pending drop outcomes into client-report envelopes in the spool. */
  flushClientReports(): Promise<void>;
  /** Starts sending what the spool holds, and the client-report interval. */
  start(): void;
  /** Stops the client-report interval (the last reports are spooled by `close`). */
  stopReports(): void;
  /**
   * Sends what the spool holds for up to `timeoutMs` (what is left stays spooled for the next
   * start on this spool), spools the last reports, closes spool and sender.
   */
  close(timeoutMs: number): Promise<void>;
}

/** Opens the injected spool, or the one in `dir`; reports what it recovered. */
export async function openSpool(
  config: RelayConfig,
  injected: Spool | undefined,
  dir: string = config.RELAY_SPOOL_DIR,
): Promise<{ spool: Spool; recovery: RecoveryReport }> {
  const spool =
    injected ??
    createSpool({
      dir,
      maxBytes: config.RELAY_SPOOL_MAX_BYTES,
      projectShare: config.RELAY_SPOOL_PROJECT_SHARE,
      segmentBytes: config.RELAY_SPOOL_SEGMENT_BYTES,
      memoryBytes: config.RELAY_SPOOL_MEMORY_BYTES,
      fsync: config.RELAY_SPOOL_FSYNC,
    });
  return { spool, recovery: await spool.open() };
}

/** Builds the delivery side over an opened spool; nothing is sent before `start()`. */
export function createDelivery(config: RelayConfig, parts: DeliveryParts): Delivery {
  const { spool, registry, metrics, log, now } = parts;
  const sender = parts.send
    ? { send: parts.send, close: () => undefined }
    : createHttpSend({
        maxSockets: config.RELAY_MAX_IN_FLIGHT,
        timeoutMs: config.RELAY_UPSTREAM_TIMEOUT,
        userAgent: parts.userAgent,
      });
  const aggregator = createClientReportAggregator();
  const outcomes = createOutcomeSink(aggregator, metrics.dropped);
  const forwarder = createForwarder({
    spool,
    send: sender.send,
    registry,
    rateLimits: parts.rateLimits,
    outcomes,
    observer: {
      onResponse: metrics.upstream,
      onError: (message, dsn) => log.warn({ dsn }, message),
    },
    maxInFlight: config.RELAY_MAX_IN_FLIGHT,
    maxAgeMs: config.RELAY_SPOOL_MAX_AGE,
    retry: {
      baseMs: config.RELAY_RETRY_BASE,
      maxMs: config.RELAY_RETRY_MAX,
      maxAttempts: config.RELAY_RETRY_ATTEMPTS,
    },
    now,
    random: parts.random,
  });
  let reportTimer: ReturnType<typeof setInterval> | undefined;

  async function flushClientReports(): Promise<void> {
    for (const [dsnKey, payloads] of aggregator.drain(now() / 1000)) {
      const allowed = registry.byKey(dsnKey);
      if (!allowed) continue;
      const envelope = clientReportEnvelope(publicDsnFor(allowed), payloads, now());
      // Never reported on if it cannot be spooled (client reports are not reported on).
      await spool.append(dsnKey, envelope, now()).catch(() => 'full');
    }
  }

  return {
    forwarder,
    outcomes,
    flushClientReports,
    start() {
      reportTimer = setInterval(() => {
        flushClientReports().catch((error: unknown) =>
          log.warn({ err: error }, 'client report flush failed'),
        );
      }, config.RELAY_CLIENT_REPORT_INTERVAL);
      reportTimer.unref();
      forwarder.pump();
    },
    stopReports() {
      clearInterval(reportTimer);
    },
    async close(timeoutMs) {
      const until = performance.now() + timeoutMs;
      const left = () => Math.max(0, until - performance.now());
      // Reports first, so they leave with the rest; what cannot leave in time stays spooled.
      await flushClientReports();
      await forwarder.flush(timeoutMs);
      await forwarder.drain(left());
      await flushClientReports();
      await spool.close();
      sender.close();
    },
  };
}
