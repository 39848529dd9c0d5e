/**
 * Builds the render service's Fastify app from its dependencies: assets, the JSON API, health
 * endpoints and the page routes. main.ts and the tests both call this.
 */
import { requestContext } from '@fastify/request-context';
import fastifyStatic from '@fastify/static';
import { createCatalogClient, type GrpcTransport } from '@strata/catalog-client';
import { grpcCallHistogram, registerHttpMetrics } from '@strata/metrics';
import { tracestateToForward, type NodeTelemetry } from '@strata/telemetry';
import {
  createActionRegistry,
  createErrorResponder,
  createTrustedProxies,
  drainRefusedBodies,
  pageRouteOf,
  registerSecurityHeaders,
  traceIdOf,
  webRoutes,
  type SegmentCache,
  type ServerErrorContext,
  type WebRuntime,
} from '@strata/web/server';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { catalogActions } from './actions/catalog-actions.js';
import { catalogApi } from './api/catalog-api.js';
import { NOT_FOUND_ROOT } from './app/routes.js';
import { serverRoutes } from './app/server-routes.js';
import type { AppServices } from './app/services.js';
import { DEVELOPMENT_ACTION_SALT, type RenderConfig } from './config.js';
import { createCatalogGateway } from './gateway/catalog-gateway.js';
import { registerReadiness } from './readiness.js';
import { serverTimeouts } from './server-timeouts.js';
import { relayTunnel } from './telemetry/relay-tunnel.js';
import { logRequestIds, requestIdFrom } from './request-ids.js';
import { dataCallTracer } from './telemetry/data-call-tracer.js';
import { reportServerError, runtimeTelemetry } from './telemetry/runtime-telemetry.js';

/** The built client bundle: where its files are and which scripts pages load. */
export interface ClientAssets {
  readonly directory: string | undefined;
  readonly scripts: readonly string[];
  readonly contentHash: string;
}

/** Everything the app is built from. */
export interface RenderAppDeps {
  readonly config: RenderConfig;
  readonly logger: Logger;
  /** The connections to the data replicas (the catalogue client is built on them here). */
  readonly dataTransport: GrpcTransport;
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
export async function buildRenderApp(deps: RenderAppDeps): Promise<FastifyInstance> {
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
  const tracer = dataCallTracer(
    telemetry,
    deps.metrics && grpcCallHistogram(deps.metrics, 'client'),
  );
  const catalog = createCatalogClient(deps.dataTransport, {
    deadlineMs: config.DATA_DEADLINE,
    onRetry: (method, error) => logger.warn({ method, err: error }, 'retrying a data read'),
    ...(tracer && { tracer }),
  });
  // The request's id (the gateway's, see request-ids.ts) and a W3C caller's tracestate go with
  // its data calls.
  const gatewayFor = (
    headers: Record<string, string | string[] | undefined>,
    traceId: string,
    signal?: AbortSignal,
  ) =>
    createCatalogGateway(catalog, {
      traceId,
      signal,
      requestId: requestContext.get('reqId'),
      // Only beside the traceparent it belongs to, which travels only with telemetry on.
      tracestate: telemetry?.enabled ? tracestateToForward(headers, traceId) : undefined,
    });
  const revalidate = deps.revalidate ?? (async () => undefined);
  const salt = config.ACTION_SALT ?? DEVELOPMENT_ACTION_SALT;
  if (!config.ACTION_SALT)
    logger.warn('ACTION_SALT is unset: using the development salt; set it in production');
  const actions = createActionRegistry<AppServices>(salt, Object.values(catalogActions) as never);
  const actionIds = Object.fromEntries(
    Object.values(catalogActions).map((action) => [action.name, actions.idOf(action)]),
  );
  const buildId = buildIdOf(config, deps.assets);
  const browserTelemetry = telemetry && runtimeTelemetry(telemetry, config, buildId);
  const runtime: WebRuntime<AppServices> = {
    table: serverRoutes({
      benchPages: config.RENDER_BENCH_PAGES,
      errorDrills: config.RENDER_ERROR_DRILLS,
    }),
    buildId,
    production: config.RENDER_PRODUCTION,
    clientScripts: deps.assets.scripts,
    notFoundRoot: NOT_FOUND_ROOT,
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
    dataTransport: deps.dataTransport,
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

  await app.register(catalogApi, {
    prefix: '/api',
    catalogFor: gatewayFor,
    traceIdOf,
    revalidate,
  });

  await app.register(webRoutes<AppServices>, {
    runtime,
    actions,
    servicesFor: (request, { traceId, signal }) => ({
      catalog: gatewayFor(request.headers, traceId, signal),
      actionIds,
    }),
    publicOrigins: config.PUBLIC_ORIGINS,
    trustedProxies,
    actionBodyLimit: BODY_LIMIT,
    revalidate,
  });
  return app;
}
