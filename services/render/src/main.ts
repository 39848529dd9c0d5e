/**
 * Composition root of the render service: reads the environment, opens the connections to the
 * data replicas, starts the segment cache (Redis or in-process) and its change-feed subscription,
 * builds the app, listens, and shuts down gracefully on SIGTERM/SIGINT.
 */
import { createCatalogClient, createGrpcTransport } from '@strata/catalog-client';
import { ConfigError } from '@strata/config';
import { startNodeTelemetry } from '@strata/telemetry';
import { pino } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { loadClientAssets } from './client-assets.js';
import { dataTlsSettings, loadRenderConfig } from './config.js';
import { refuseDevelopmentSettings } from './production-guard.js';
import { buildIdOf, buildRenderApp } from './render-app.js';
import { requestIdMixin } from './request-ids.js';
import { startSegmentCache } from './segment-cache/index.js';
import { ignoredTransactions } from './telemetry/ignored-transactions.js';

// How long start-up waits for Redis before serving uncached (it keeps reconnecting).
const REDIS_STARTUP_WAIT_MS = 2000;

async function main(): Promise<void> {
  let config;
  try {
    config = refuseDevelopmentSettings(loadRenderConfig(process.env), process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
  // Lines logged while a request is handled carry its id (the gateway's X-Request-Id).
  const logger = pino({ name: 'render', level: config.LOG_LEVEL, mixin: requestIdMixin });
  const dataTransport = createGrpcTransport(config.DATA_SERVICE_ADDRESS, {
    tls: dataTlsSettings(config),
  });
  const assets = loadClientAssets();
  // Before the app is built, so the SDK sees every request from the first one.
  const telemetry = startNodeTelemetry(config, {
    service: 'render',
    release: buildIdOf(config, assets),
    ignoreTransactions: ignoredTransactions(config.SENTRY_TUNNEL),
  });
  const metrics = new Registry();
  // Standard names (process_*, nodejs_*), so stock Node.js dashboards work.
  collectDefaultMetrics({ register: metrics });
  const caching = config.SEGMENT_CACHE
    ? startSegmentCache({
        config,
        build: buildIdOf(config, assets),
        logger: logger.child({ component: 'segment-cache' }),
        catalog: createCatalogClient(dataTransport),
        registry: metrics,
      })
    : undefined;
  if (caching && !(await caching.cache.ready(REDIS_STARTUP_WAIT_MS)))
    logger.warn('Redis is not answering yet; serving uncached until it does');
  const app = await buildRenderApp({
    config,
    logger,
    dataTransport,
    assets,
    metrics,
    telemetry,
    ...(caching && {
      segmentCache: caching.cache,
      cacheHealthy: () => caching.cache.healthy(),
      revalidate: (tags: readonly string[]) => caching.cache.invalidate(tags, 'revalidate'),
    }),
  });
  await app.listen({ port: config.RENDER_PORT, host: config.RENDER_HOST });
  logger.info(
    { port: config.RENDER_PORT, data: config.DATA_SERVICE_ADDRESS },
    'render service listening',
  );

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app
      .close()
      .then(() => caching?.close())
      .then(() => telemetry.close(2000))
      .then(
        () => {
          dataTransport.close();
          process.exit(0);
        },
        () => process.exit(1),
      );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('render service failed to start:', error);
  process.exit(1);
});
