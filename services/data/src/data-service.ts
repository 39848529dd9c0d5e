/**
 * Starts and stops the whole data service from a parsed config: database, migrations, seed,
 * change feed, gRPC server and, when DATA_METRICS_PORT is set, the Prometheus listener. main.ts
 * and the tests both go through here.
 */
import * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import { createCatalog, type Catalog } from './catalog.js';
import { startChangeFeed } from './changes/change-feed.js';
import { DEVELOPMENT_PAGE_TOKEN_SECRET, type DataConfig } from './config.js';
import { DISABLED_TELEMETRY, type NodeTelemetry } from '@strata/telemetry';
import { watchDatabaseReadiness } from './database-readiness.js';
import { createDataGrpcServer } from './grpc/create-server.js';
import { createDataMetrics } from './metrics/data-metrics.js';
import { startMetricsServer, type MetricsServer } from './metrics/metrics-server.js';
import { migrate } from './storage/migrate.js';
import { describeDatabase, openDatabase } from './storage/open-database.js';
import { seedIfEmpty } from './storage/seed.js';
import type { Database } from './storage/database.js';

/** A running data service. */
export interface RunningDataService {
  /** The bound port (useful with DATA_PORT=0). */
  readonly port: number;
  /** `host:port` to dial. */
  readonly address: string;
  /** The bound port of `GET /metrics` (undefined: DATA_METRICS_PORT unset, no listener). */
  readonly metricsPort: number | undefined;
  /** The catalogue, for in-process callers (the benchmark's ceiling). */
  readonly catalog: Catalog;
  /** The database, for tests and tools. */
  readonly database: Database;
  /** Drains calls (up to the configured grace), then closes everything. */
  stop(): Promise<void>;
}

/** TLS when a certificate is configured (mutual when a client CA is), else plaintext. */
function credentialsOf(config: DataConfig): grpc.ServerCredentials {
  if (!config.DATA_TLS_CERT || !config.DATA_TLS_KEY) return grpc.ServerCredentials.createInsecure();
  return grpc.ServerCredentials.createSsl(
    config.DATA_TLS_CA ? Buffer.from(config.DATA_TLS_CA) : null,
    [
      {
        cert_chain: Buffer.from(config.DATA_TLS_CERT),
        private_key: Buffer.from(config.DATA_TLS_KEY),
      },
    ],
    config.DATA_TLS_CA !== undefined,
  );
}

function bind(server: grpc.Server, address: string, config: DataConfig): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(address, credentialsOf(config), (error, port) =>
      error ? reject(error) : resolve(port),
    );
  });
}

/** Opens storage, migrates, seeds if empty, and serves gRPC. */
export async function startDataService(
  config: DataConfig,
  logger: Logger,
  telemetry: NodeTelemetry = DISABLED_TELEMETRY,
): Promise<RunningDataService> {
  const database = await openDatabase(config);
  logger.info({ database: describeDatabase(config) }, 'database open');
  try {
    const applied = await migrate(database);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    if (config.DATA_SEED && (await seedIfEmpty(database)))
      logger.info('seeded the benchmark catalogue');
  } catch (error) {
    await database.close();
    throw error;
  }

  if (!config.PAGE_TOKEN_SECRET)
    logger.warn('PAGE_TOKEN_SECRET is unset: using the development key; set it in production');
  const catalog = createCatalog(database, {
    pageTokenSecret: config.PAGE_TOKEN_SECRET ?? DEVELOPMENT_PAGE_TOKEN_SECRET,
    changeRetention: config.CHANGE_RETENTION,
  });
  const feed = await startChangeFeed(database, {
    onError: (error) => logger.warn({ err: error }, 'change feed pull failed; will retry'),
    onReset: (details) =>
      logger.warn(details, 'the change log lost a watcher position (failover or trim): sent RESET'),
  });
  const metrics = config.DATA_METRICS_PORT === undefined ? undefined : createDataMetrics();
  const grpcServer = createDataGrpcServer({
    catalog,
    feed,
    logger,
    telemetry,
    ...(metrics && { observeCall: metrics.observeCall }),
  });
  const port = await bind(grpcServer.server, `${config.DATA_HOST}:${config.DATA_PORT}`, config);
  let metricsServer: MetricsServer | undefined;
  if (metrics && config.DATA_METRICS_PORT !== undefined)
    try {
      metricsServer = await startMetricsServer(metrics.registry, {
        host: config.DATA_HOST,
        port: config.DATA_METRICS_PORT,
      });
    } catch (error) {
      // The metrics port is taken or refused: let go of everything started so far.
      grpcServer.server.forceShutdown();
      await feed.close();
      await database.close();
      throw error;
    }
  grpcServer.setServing(true);
  const readiness = watchDatabaseReadiness(database, grpcServer.setServing, { logger });
  logger.info(
    {
      port,
      host: config.DATA_HOST,
      tls: config.DATA_TLS_CERT ? (config.DATA_TLS_CA ? 'mutual' : 'on') : 'off',
      metricsPort: metricsServer?.port,
    },
    'data service listening',
  );

  let stopping: Promise<void> | undefined;
  return {
    port,
    address: `${config.DATA_HOST === '0.0.0.0' ? '127.0.0.1' : config.DATA_HOST}:${port}`,
    metricsPort: metricsServer?.port,
    catalog,
    database,
    stop() {
      stopping ??= (async () => {
        readiness.stop();
        grpcServer.setServing(false);
        await feed.close();
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => {
            logger.warn('grace period over; cancelling remaining calls');
            grpcServer.server.forceShutdown();
            resolve();
          }, config.DATA_SHUTDOWN_GRACE);
          grpcServer.server.tryShutdown(() => {
            clearTimeout(force);
            resolve();
          });
        });
        // Last to go, so a scrape during the drain still sees the calls finishing.
        await metricsServer?.close();
        await database.close();
        logger.info('data service stopped');
      })();
      return stopping;
    },
  };
}
