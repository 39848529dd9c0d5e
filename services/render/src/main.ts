#!/usr/bin/env node
/**
 * Composition root of the render service: reads the environment, loads and starts the app
 * (RENDER_APP), starts the segment cache (Redis or in-process) and its subscription to the app's
 * change feed, builds the server, listens, and shuts down gracefully on SIGTERM/SIGINT.
 */
import { resolve } from 'node:path';
import { ConfigError } from '@strata/config';
import { startNodeTelemetry } from '@strata/telemetry';
import { pino } from 'pino';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { loadClientAssets } from './client-assets.js';
import { loadRenderConfig } from './config.js';
import { loadApp } from './load-app.js';
import { refuseDevelopmentSettings } from './production-guard.js';
import { buildIdOf, buildRenderApp } from './render-app.js';
import { requestIdMixin } from './request-ids.js';
import { startServedApp } from './served-app.js';
import { startSegmentCache } from './segment-cache/index.js';
import { ignoredTransactions } from './telemetry/ignored-transactions.js';

// How long start-up waits for Redis before serving uncached (it keeps reconnecting).
const REDIS_STARTUP_WAIT_MS = 2000;

/** The settings, the app and its client bundle; exits with 78 (EX_CONFIG) when one is wrong. */
async function loadSettings() {
  try {
    const config = refuseDevelopmentSettings(loadRenderConfig(process.env), process.env);
    // Found as Node finds a package imported from there, not among render's dependencies.
    const loaded = await loadApp(config.RENDER_APP, resolve(config.RENDER_APP_ROOT ?? '.'));
    return { config, loaded, assets: loadClientAssets(config.RENDER_APP, loaded.directory) };
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const { config, loaded, assets } = await loadSettings();
  const { definition, clientRoutes } = loaded;
  // Lines logged while a request is handled carry its id (the gateway's X-Request-Id).
  const logger = pino({ name: 'render', level: config.LOG_LEVEL, mixin: requestIdMixin });
  // Before the app is built, so the SDK sees every request from the first one.
  const telemetry = startNodeTelemetry(config, {
    service: 'render',
    release: buildIdOf(config, assets),
    ignoreTransactions: ignoredTransactions(config.SENTRY_TUNNEL),
  });
  const metrics = new Registry();
  // Standard names (process_*, nodejs_*), so stock Node.js dashboards work.
  collectDefaultMetrics({ register: metrics });
  let served;
  try {
    served = await startServedApp(definition, {
      config,
      env: process.env,
      logger: logger.child({ app: definition.name }),
      metrics,
      clientRoutes,
    });
  } catch (error) {
    // The app's own settings are wrong: said as the service's are.
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(78);
  }
  const { running } = served;
  const caching = config.SEGMENT_CACHE
    ? startSegmentCache({
        config,
        build: buildIdOf(config, assets),
        logger: logger.child({ component: 'segment-cache' }),
        watchChanges: running.watchChanges?.bind(running),
        registry: metrics,
      })
    : undefined;
  if (caching && !(await caching.cache.ready(REDIS_STARTUP_WAIT_MS)))
    logger.warn('Redis is not answering yet; serving uncached until it does');
  const app = await buildRenderApp({
    config,
    logger,
    served,
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
  logger.info({ port: config.RENDER_PORT, app: config.RENDER_APP }, 'render service listening');

  const shutdown = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app
      .close()
      .then(() => caching?.close())
      .then(() => running.close())
      .then(() => telemetry.close(2000))
      .then(
        () => process.exit(0),
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
