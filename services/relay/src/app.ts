/**
 * `buildApp(deps)`: wires the relay from its config and injectable adapters (spool, upstream
 * sender, logger, clock) into a Fastify instance plus the forwarder. Tests call this; `main.ts`
 * adds process concerns (env, signals, listening).
 */
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
} from 'fastify';
import type { RelayConfig } from './config.js';
import { createDsnRegistry, publicDsnFor } from './dsn/dsn-registry.js';
import { createEnvelope, createItem, serializeEnvelope } from './envelope/serialize-envelope.js';
import { RelayError, errorBody } from './errors.js';
import type { BodyLimits } from './http/read-body.js';
import { createBodyReaders } from './http/body-readers.js';
import { requestIdFrom } from './http/request-ids.js';
import type { IngestContext } from './ingest/accept-envelope.js';
import { itemBudgetsFrom, readerLimitsFrom } from './limits/item-budgets.js';
import { createRefusedBodyRate } from './limits/refused-body-rate.js';
import { createSharedByteBudget } from './limits/shared-byte-budget.js';
import { createMetrics } from './metrics.js';
import { registerHttpMetrics } from '@strata/metrics';
import { createClientReportAggregator } from './outcomes/client-reports.js';
import { createOutcomeSink } from './outcomes/outcome-sink.js';
import { createProcessOptions } from './project-options.js';
import { createRateLimitState } from './rate-limits/rate-limit-state.js';
import { createRequestLimiter } from './rate-limits/request-limiter.js';
import { debugRoutes } from './routes/debug-routes.js';
import { ingestRoutes } from './routes/ingest-routes.js';
import { opsRoutes } from './routes/ops-routes.js';
import { createSpool, type Spool } from './spool/spool.js';
import { createForwarder } from './upstream/forwarder.js';
import { createHttpSend, type SendEnvelope } from './upstream/http-send.js';

/** What the relay is built from; everything but `config` has a production default. */
export interface RelayDeps {
  readonly config: RelayConfig;
  /** An unopened spool (default: files under RELAY_SPOOL_DIR). */
  readonly spool?: Spool;
  readonly send?: SendEnvelope;
  readonly logger?: FastifyBaseLogger;
  readonly now?: () => number;
  readonly random?: () => number;
  readonly processMetrics?: boolean;
}

/** The built relay. */
export interface RelayApp {
  readonly app: FastifyInstance;
  /** Turns pending drop outcomes into client-report envelopes in the spool. */
  flushClientReports(): Promise<void>;
  /** Stops accepting, waits for in-flight sends (they stay spooled if cut), flushes, closes. */
  shutdown(timeoutMs?: number): Promise<void>;
}

const VERSION = '0.1.0';
const encoder = new TextEncoder();
/** Distinct client addresses whose request windows are remembered at once. */
const MAX_LIMITED_ADDRESSES = 10_000;
/** Bytes each request reads before it draws on RELAY_MAX_BUFFERED_BYTES. */
const FREE_BYTES_PER_REQUEST = 64 * 1024;

/** Builds the relay (opens the spool and queues what it recovered). */
export async function buildApp(deps: RelayDeps): Promise<RelayApp> {
  const { config } = deps;
  const now = deps.now ?? Date.now;
  const registry = createDsnRegistry(config.RELAY_DSNS, {
    upstreamKind: config.RELAY_UPSTREAM_KIND,
    upstreamUrl: config.RELAY_UPSTREAM,
    clientName: `strata-relay/${VERSION}`,
  });
  const spool =
    deps.spool ??
    createSpool({
      dir: config.RELAY_SPOOL_DIR,
      maxBytes: config.RELAY_SPOOL_MAX_BYTES,
      projectShare: config.RELAY_SPOOL_PROJECT_SHARE,
      segmentBytes: config.RELAY_SPOOL_SEGMENT_BYTES,
      memoryBytes: config.RELAY_SPOOL_MEMORY_BYTES,
      fsync: config.RELAY_SPOOL_FSYNC,
    });
  const recovery = await spool.open();
  const sender = deps.send
    ? { send: deps.send, close: () => undefined }
    : createHttpSend({
        maxSockets: config.RELAY_MAX_IN_FLIGHT,
        timeoutMs: config.RELAY_UPSTREAM_TIMEOUT,
        userAgent: `strata-relay/${VERSION}`,
      });

  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
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
  const log = app.log;
  const rateLimits = createRateLimitState();
  let forwarderRef: ReturnType<typeof createForwarder> | undefined;
  const metrics = createMetrics(
    {
      spoolStats: () => spool.stats(),
      inFlight: () => forwarderRef?.inFlight() ?? 0,
      rateLimits,
      now,
    },
    deps.processMetrics ?? false,
  );
  registerHttpMetrics(app, metrics.registry);
  const aggregator = createClientReportAggregator();
  const outcomes = createOutcomeSink(aggregator, metrics.dropped);
  const forwarder = createForwarder({
    spool,
    send: sender.send,
    registry,
    rateLimits,
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
    random: deps.random ?? Math.random,
  });
  forwarderRef = forwarder;

  const processOptions = createProcessOptions(config);
  const rateWindow = { windowMs: config.RELAY_RATE_LIMIT_WINDOW };
  const context: IngestContext = {
    registry,
    rateLimits,
    spool,
    outcomes,
    readerLimits: readerLimitsFrom(config),
    budgets: itemBudgetsFrom(config),
    keyLimiter: createRequestLimiter({
      ...rateWindow,
      limit: config.RELAY_RATE_LIMIT_PER_KEY,
      maxKeys: Math.max(1, config.RELAY_DSNS.length),
    }),
    bodyMemory: createSharedByteBudget(config.RELAY_MAX_BUFFERED_BYTES, FREE_BYTES_PER_REQUEST),
    processOptions: (allowed) => processOptions(allowed.dsn.projectId),
    onAccepted: metrics.accepted,
    now,
  };
  const bodyLimits: BodyLimits = { maxBodyBytes: config.RELAY_MAX_BODY_BYTES };
  let shuttingDown = false;
  const bodyReaders = createBodyReaders();

  // Bodies are read by the routes themselves, as bytes, with the relay's own limits.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
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

  const isShuttingDown = () => shuttingDown;
  await app.register(ingestRoutes, {
    context,
    tunnelPath: config.RELAY_TUNNEL_PATH,
    allowedOrigins: config.RELAY_ALLOWED_ORIGINS,
    bodyLimits,
    addressLimiter: createRequestLimiter({
      ...rateWindow,
      limit: config.RELAY_RATE_LIMIT_PER_ADDRESS,
      maxKeys: MAX_LIMITED_ADDRESSES,
    }),
    isShuttingDown,
    bodyReaders,
    refusedRate: createRefusedBodyRate(config.RELAY_REFUSED_BODY_RATE),
  });
  await app.register(opsRoutes, {
    metrics,
    configured: registry.all.length > 0,
    spoolStats: () => spool.stats(),
    upstreamReachable: forwarder.upstreamReachable,
    isShuttingDown,
  });
  if (config.RELAY_DEBUG_ENDPOINT) await app.register(debugRoutes, { context, bodyLimits });

  async function flushClientReports(): Promise<void> {
    for (const [dsnKey, payloads] of aggregator.drain(now() / 1000)) {
      const allowed = registry.byKey(dsnKey);
      if (!allowed) continue;
      const items = payloads.map((payload) =>
        createItem({ type: 'client_report' }, encoder.encode(JSON.stringify(payload))),
      );
      const envelope = createEnvelope(
        { dsn: publicDsnFor(allowed), sent_at: new Date(now()).toISOString() },
        items,
      );
      // Never reported on if it cannot be spooled (client reports are not reported on).
      await spool.append(dsnKey, serializeEnvelope(envelope), now()).catch(() => 'full');
    }
  }
  const reportTimer = setInterval(() => {
    flushClientReports().catch((error: unknown) =>
      log.warn({ err: error }, 'client report flush failed'),
    );
  }, config.RELAY_CLIENT_REPORT_INTERVAL);
  reportTimer.unref();

  if (recovery.recovered > 0) log.info(recovery, 'spooled envelopes recovered');
  if (recovery.skippedRegions > 0) log.error(recovery, 'spool recovery skipped corrupted records');
  forwarder.pump();

  return {
    app,
    flushClientReports,
    async shutdown(timeoutMs = 10_000) {
      shuttingDown = true;
      clearInterval(reportTimer);
      // Bodies still arriving are cut off; a connection that has not even sent its headers by
      // the deadline is closed, so a slow client never holds the shutdown.
      bodyReaders.stopAll();
      const cutOff = setTimeout(() => app.server.closeAllConnections(), timeoutMs);
      await app.close();
      clearTimeout(cutOff);
      await forwarder.drain(timeoutMs);
      await flushClientReports();
      await spool.close();
      sender.close();
    },
  };
}
