/**
 * Builds the render service's Fastify app from its dependencies: assets, health endpoints, the
 * app's own routes and its pages. main.ts and the tests both call this.
 */
import { requestContext } from '@fastify/request-context';
import fastifyStatic from '@fastify/static';
import { registerHttpMetrics } from '@strata/metrics';
import { tracestateToForward, type NodeTelemetry } from '@strata/telemetry';
import {
  createErrorResponder,
  createTrustedProxies,
  drainRefusedBodies,
  pageRouteOf,
  registerSecurityHeaders,
  traceIdOf,
  webRoutes,
  type AppRequest,
  type SegmentCache,
  type ServerErrorContext,
  type WebRuntime,
} from '@strata/web/server';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyRequest,
} from 'fastify';
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { mountAppHandlers } from './app-handlers.js';
import type { RenderConfig } from './config.js';
import { registerReadiness } from './readiness.js';
import { logRequestIds, requestIdFrom, requestLogger } from './request-ids.js';
import type { ServedApp } from './served-app.js';
import { serverTimeouts } from './server-timeouts.js';
import { relayTunnel } from './telemetry/relay-tunnel.js';
import { reportServerError, runtimeTelemetry } from './telemetry/runtime-telemetry.js';

/** The built client bundle: where its files are and which scripts pages load. */
export interface ClientAssets {
  readonly directory: string | undefined;
  readonly scripts: readonly string[];
  readonly contentHash: string;
}

/** Everything the app is built from. */
export interface RenderAppDeps<Services = unknown> {
  readonly config: RenderConfig;
  readonly logger: Logger;
  /** The application, started (see served-app.ts). */
  readonly served: ServedApp<Services>;
  readonly assets: ClientAssets;
  /** Invalidates cached data by tag (the segment cache plugs in here). */
  readonly revalidate?: (tags: readonly string[]) => Promise<void>;
  /** Shared segment cache (absent: every loader runs on every request). */
  readonly segmentCache?: SegmentCache;
  /** Whether the shared cache's store answers (reported by /readyz; absent: no shared cache). */
  readonly cacheHealthy?: () => boolean;
  /** Prometheus registry served at GET /metrics (absent: no such route). */
  readonly metrics?: Registry;
  /** Error and trace reporting (absent: none). */
  readonly telemetry?: NodeTelemetry;
}

/** Largest action and /api body, in bytes (413 beyond). */
const BODY_LIMIT = 1024 * 1024;

/**
 * A body refused before it was read (413, 415) is still read, up to this much, before the
 * answer goes out: behind a proxy that sends the whole body first (nginx allows 2 MiB), closing
 * early turns the refusal into a 502.
 */
const REFUSED_BODY_DRAIN = { maxBytes: 4 * 1024 * 1024, timeoutMs: 5000 };

/** The build id the app announces: BUILD_ID, or the client bundle's content hash. */
export function buildIdOf(config: RenderConfig, assets: ClientAssets): string {
  return config.BUILD_ID ?? assets.contentHash;
}

/** Builds (does not start) the app. */
export async function buildRenderApp<Services>(
  deps: RenderAppDeps<Services>,
): Promise<FastifyInstance> {
  const { config, logger } = deps;
  const trustedProxies = createTrustedProxies(config.TRUSTED_PROXIES);
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Access logs belong to the gateway; per-request log lines here would cost CPU on every page.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: [...config.TRUSTED_PROXIES],
    bodyLimit: BODY_LIMIT,
    ...serverTimeouts(config),
    genReqId: requestIdFrom(trustedProxies),
    childLoggerFactory: requestLogger,
  });
  // First, so every answer carries them: pages, payloads, JSON, assets and errors.
  registerSecurityHeaders(app, {
    frameAncestors: config.CSP_FRAME_ANCESTORS,
    connectSources: config.CSP_CONNECT_SRC,
    imageSources: config.CSP_IMG_SRC,
  });
  drainRefusedBodies(app, REFUSED_BODY_DRAIN);
  // Pages are labelled by the app's route pattern, not the catch-all they are served by.
  if (deps.metrics) registerHttpMetrics(app, deps.metrics, { routeOf: pageRouteOf });
  await logRequestIds(app);
  const telemetry = deps.telemetry;
  const { running } = deps.served;
  // The SDK's trace when one is recorded (it continues an incoming one), so logs, error screens
  // and reports all name the same trace. A W3C caller's tracestate travels only beside the
  // traceparent it belongs to, which is sent only with telemetry on.
  const appRequest = (
    headers: FastifyRequest['headers'],
    signal?: AbortSignal,
    traceId = telemetry?.currentTrace()?.traceId ?? traceIdOf(headers),
  ): AppRequest => ({
    headers,
    traceId,
    tracestate: telemetry?.enabled ? tracestateToForward(headers, traceId) : undefined,
    requestId: requestContext.get('reqId') ?? '',
    signal,
  });
  const revalidate = deps.revalidate ?? (async () => undefined);
  const buildId = buildIdOf(config, deps.assets);
  const browserTelemetry = telemetry && runtimeTelemetry(telemetry, config, buildId);
  const runtime: WebRuntime<Services> = {
    table: running.routes,
    buildId,
    clientScripts: deps.assets.scripts,
    actionIds: deps.served.actions.bySegment,
    renderTimeoutMs: config.RENDER_TIMEOUT,
    logger,
    ...(deps.segmentCache && { segmentCache: deps.segmentCache }),
    ...(browserTelemetry && { telemetry: browserTelemetry }),
    ...(telemetry?.enabled && {
      onServerError: (error: unknown, context: ServerErrorContext) =>
        reportServerError(telemetry, error, context),
    }),
  };
  // Errors no route handled (the JSON API rethrows unexpected ones): a digest, never internals.
  app.setErrorHandler(createErrorResponder(runtime as WebRuntime<never>));

  if (deps.assets.directory && existsSync(deps.assets.directory))
    await app.register(fastifyStatic, {
      root: deps.assets.directory,
      prefix: '/assets/',
      // Names carry a content hash, so a file never changes: cache it for a year.
      immutable: true,
      maxAge: '365d',
      index: false,
      wildcard: true,
    });

  // Browsers ask for it on every first visit; answer "none" instead of rendering a 404 page.
  app.get('/favicon.ico', (_request, reply) =>
    reply.code(204).header('cache-control', 'public, max-age=86400').send(),
  );
  app.get('/healthz', async () => ({ status: 'ok' }));
  registerReadiness(app, {
    buildId,
    appReadiness: running.readiness?.bind(running),
    cacheHealthy: deps.cacheHealthy,
  });
  const registry = deps.metrics;
  if (registry)
    app.get('/metrics', async (_request, reply) =>
      reply.type(registry.contentType).send(await registry.metrics()),
    );

  // Without a gateway the browser's tunnel path lands here: hand it to the relay.
  if (telemetry?.enabled)
    await app.register(relayTunnel, { relayUrl: config.RELAY_URL, path: config.SENTRY_TUNNEL });

  if (running.handlers)
    await mountAppHandlers(app, running.handlers, {
      servicesFor: (request, signal) => running.servicesFor(appRequest(request.headers, signal)),
      revalidate,
      bodyLimit: BODY_LIMIT,
    });

  await app.register(webRoutes<Services>, {
    runtime,
    actions: deps.served.actions,
    servicesFor: (request, { traceId, signal }) =>
      running.servicesFor(appRequest(request.headers, signal, traceId)),
    publicOrigins: config.PUBLIC_ORIGINS,
    trustedProxies,
    actionBodyLimit: BODY_LIMIT,
    revalidate,
  });
  return app;
}
