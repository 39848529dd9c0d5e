/**
 * The relay's HTTP side: the Fastify instance (timeouts, request ids, bodies left raw for the
 * routes, error answers, request metrics), then its routes (ingest and tunnel, ops, debug) with
 * the switch that shutdown turns to refuse new envelopes and cut off bodies still arriving.
 */
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
} from 'fastify';
import { registerHttpMetrics } from '@strata/metrics';
import type { RelayConfig } from './config.js';
import type { DsnRegistry } from './dsn/dsn-registry.js';
import { RelayError, errorBody } from './errors.js';
import { createBodyReaders } from './http/body-readers.js';
import type { BodyLimits } from './http/read-body.js';
import { requestIdFrom } from './http/request-ids.js';
import type { EventDedupe } from './dedupe/event-dedupe.js';
import type { IngestContext } from './ingest/accept-envelope.js';
import { itemBudgetsFrom, readerLimitsFrom } from './limits/item-budgets.js';
import { createRefusedBodyRate } from './limits/refused-body-rate.js';
import { createSharedByteBudget } from './limits/shared-byte-budget.js';
import type { RelayMetrics } from './metrics.js';
import type { TraceExport } from './otlp/trace-export.js';
import type { OutcomeSink } from './outcomes/outcome-sink.js';
import { createProcessOptions } from './project-options.js';
import type { ClientLimiters } from './shared-limits/client-limiters.js';
import type { RateLimitState } from './rate-limits/rate-limit-state.js';
import { debugRoutes } from './routes/debug-routes.js';
import { ingestRoutes } from './routes/ingest-routes.js';
import { opsRoutes } from './routes/ops-routes.js';
import type { Spool } from './spool/spool.js';

/** How often a closing server looks for keep-alive connections that have gone idle. */
const IDLE_SWEEP_MS = 50;

/** What the routes are built from besides the config. */
export interface RouteParts {
  readonly registry: DsnRegistry;
  readonly rateLimits: RateLimitState;
  /** The per-address and per-key request limits. */
  readonly limiters: ClientLimiters;
  readonly spool: Spool;
  readonly outcomes: OutcomeSink;
  readonly metrics: RelayMetrics;
  readonly upstreamReachable: () => boolean;
  readonly now: () => number;
  /** With RELAY_OTLP_TRACES_URL. */
  readonly traces: TraceExport | undefined;
  /** Undefined with RELAY_DEDUPE_WINDOW=0. */
  readonly dedupe: EventDedupe | undefined;
}

/** What shutdown does to the HTTP side. */
export interface HttpIntake {
  /** New requests get 503 and bodies still arriving are cut off. */
  stopAccepting(): void;
  /** Closes the server; connections still open after `timeoutMs` are closed. */
  close(timeoutMs: number): Promise<void>;
}

/** Bytes each request reads before it draws on RELAY_MAX_BUFFERED_BYTES. */
const FREE_BYTES_PER_REQUEST = 64 * 1024;

/** The Fastify instance with the relay's server settings and error answers, without routes. */
export function createServer(
  config: RelayConfig,
  logger: FastifyBaseLogger | undefined,
  metrics: RelayMetrics,
): FastifyInstance {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger } : { logger: false }),
    trustProxy: config.RELAY_TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true },
    // Per-request lines cost throughput and add nothing the metrics do not show.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.RELAY_MAX_BODY_BYTES,
    // A client that trickles its headers or body, or goes silent, is cut off (Node answers 408).
    connectionTimeout: config.RELAY_BODY_IDLE_TIMEOUT,
    requestTimeout: config.RELAY_REQUEST_TIMEOUT,
    http: {
      headersTimeout: Math.min(config.RELAY_HEADERS_TIMEOUT, config.RELAY_REQUEST_TIMEOUT),
      // Node checks those two deadlines on this interval (30 s by default): keep it a fraction.
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(1000, config.RELAY_HEADERS_TIMEOUT / 4, config.RELAY_REQUEST_TIMEOUT / 4),
      ),
    },
    genReqId: requestIdFrom(config.RELAY_TRUST_PROXY),
  });
  registerHttpMetrics(app, metrics.registry);
  // Bodies are read by the routes themselves, as bytes, with the relay's own limits.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  answerErrors(app, metrics);
  return app;
}

/** Every error answer carries a stable code: unknown errors become RELAY_INTERNAL. */
function answerErrors(app: FastifyInstance, metrics: RelayMetrics): void {
  app.setErrorHandler((error: FastifyError | RelayError, request, reply) => {
    const relayError =
      error instanceof RelayError
        ? error
        : new RelayError('RELAY_INTERNAL', 'internal error', { cause: error });
    // request.log carries the request's id (the gateway's, behind it).
    if (relayError.code === 'RELAY_INTERNAL') request.log.error({ err: error }, 'unhandled error');
    metrics.rejected(relayError.code);
    return reply
      .code(relayError.status)
      .headers(relayError.headers)
      .header('x-sentry-error', relayError.message)
      .send(errorBody(relayError));
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new RelayError(
      'RELAY_NOT_FOUND',
      `no route for ${request.method} ${request.url.split('?')[0]}`,
    );
    return reply.code(404).send(errorBody(error));
  });
}

/** Registers the ingest, ops and (when configured) debug routes. */
export async function registerRoutes(
  app: FastifyInstance,
  config: RelayConfig,
  parts: RouteParts,
): Promise<HttpIntake> {
  const context = ingestContext(config, parts);
  const bodyLimits: BodyLimits = { maxBodyBytes: config.RELAY_MAX_BODY_BYTES };
  const bodyReaders = createBodyReaders();
  let shuttingDown = false;
  const isShuttingDown = () => shuttingDown;

  await app.register(ingestRoutes, {
    context,
    tunnelPath: config.RELAY_TUNNEL_PATH,
    allowedOrigins: config.RELAY_ALLOWED_ORIGINS,
    bodyLimits,
    addressLimiter: parts.limiters.address,
    isShuttingDown,
    bodyReaders,
    refusedRate: createRefusedBodyRate(config.RELAY_REFUSED_BODY_RATE),
  });
  await app.register(opsRoutes, {
    metrics: parts.metrics,
    configured: parts.registry.all.length > 0,
    spoolStats: () => parts.spool.stats(),
    upstreamReachable: parts.upstreamReachable,
    isShuttingDown,
  });
  if (config.RELAY_DEBUG_ENDPOINT) await app.register(debugRoutes, { context, bodyLimits });

  return {
    stopAccepting() {
      shuttingDown = true;
      bodyReaders.stopAll();
    },
    async close(timeoutMs) {
      // A connection that has not even sent its headers by the deadline is closed, so a slow
      // client never holds the shutdown.
      const cutOff = setTimeout(() => app.server.closeAllConnections(), timeoutMs);
      // Closing closes the idle keep-alive connections once; one whose request was still being
      // answered goes idle later and would hold the shutdown until the deadline.
      const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
      try {
        await app.close();
      } finally {
        clearTimeout(cutOff);
        clearInterval(sweep);
      }
    },
  };
}

/** What every envelope's intake and decision share. */
function ingestContext(config: RelayConfig, parts: RouteParts): IngestContext {
  const processOptions = createProcessOptions(config);
  return {
    registry: parts.registry,
    rateLimits: parts.rateLimits,
    spool: parts.spool,
    outcomes: parts.outcomes,
    readerLimits: readerLimitsFrom(config),
    budgets: itemBudgetsFrom(config),
    keyLimiter: parts.limiters.key,
    bodyMemory: createSharedByteBudget(config.RELAY_MAX_BUFFERED_BYTES, FREE_BYTES_PER_REQUEST),
    processOptions: (allowed) => processOptions(allowed.dsn.projectId),
    onAccepted: parts.metrics.accepted,
    dedupe: parts.dedupe,
    onDuplicate: parts.metrics.duplicate,
    traces: parts.traces,
    now: parts.now,
  };
}
