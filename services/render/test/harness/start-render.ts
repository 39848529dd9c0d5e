/**
 * The render service in-process, serving the bench app (the catalogue plus /bench/*) unless told
 * otherwise, against a real data service (PGlite in memory, real gRPC).
 */
import { createBenchApp } from '@strata/app-bench';
import type { CatalogServices } from '@strata/app-catalog';
import { createGrpcTransport, type GrpcTransport } from '@strata/catalog-client';
import { loadDataConfig, startDataService, type RunningDataService } from '@strata/data';
import { ListItemsRequest } from '@strata/proto';
import { startNodeTelemetry, type NodeTelemetry } from '@strata/telemetry';
import type { StrataApp } from '@strata/web/server';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import {
  buildRenderApp,
  loadRenderConfig,
  startServedApp,
  type ClientAssets,
} from '../../src/index.js';
import { requestIdMixin } from '../../src/request-ids.js';
import { ignoredTransactions } from '../../src/telemetry/ignored-transactions.js';
import { observeReads } from './observe-reads.js';

/** A render app and the data service behind it. */
export interface RenderUnderTest {
  readonly app: FastifyInstance;
  readonly data: RunningDataService;
  readonly logged: Record<string, unknown>[];
  readonly revalidated: string[][];
  /** Every ListItems request the render service sent, in order. */
  readonly listItemsRequests: ListItemsRequest[];
  /** The metadata of every data call, in order. */
  readonly callMetadata: Readonly<Record<string, string>>[];
  stop(): Promise<void>;
}

/** An app over the data service's transport: the bench app (the default) or the catalogue. */
export type AppOverTransport = (options: {
  dataTransport: GrpcTransport;
}) => StrataApp<CatalogServices>;

/**
 * Starts both; `env` overrides render settings, `assets` the (absent) client bundle, `app` the
 * bench app (the catalogue plus /bench/*), and `telemetry` starts the Sentry SDK as main.ts
 * does (`env` then needs SENTRY_DSN and RELAY_URL).
 */
export async function startRender(
  env: Record<string, string> = {},
  options: { assets?: ClientAssets; telemetry?: boolean; app?: AppOverTransport } = {},
): Promise<RenderUnderTest> {
  const data = await startDataService(
    loadDataConfig({ DATA_PORT: '0', DATA_DIR: 'memory://' }),
    pino({ level: 'silent' }),
  );
  const settings = {
    DATA_SERVICE_ADDRESS: data.address,
    PUBLIC_ORIGINS: 'http://shop.test',
    ACTION_SALT: 'test-action-salt',
    BUILD_ID: 'test-build',
    RENDER_ERROR_DRILLS: 'true',
    ...env,
  };
  const config = loadRenderConfig(settings);
  const logged: Record<string, unknown>[] = [];
  // As main.ts builds it: lines logged during a request carry its id.
  const logger = pino(
    { level: 'info', mixin: requestIdMixin },
    { write: (line: string) => void logged.push(JSON.parse(line)) },
  );
  const listItemsRequests: ListItemsRequest[] = [];
  const callMetadata: Readonly<Record<string, string>>[] = [];
  const transport = observeReads(createGrpcTransport(data.address), (path, request, metadata) => {
    callMetadata.push(metadata);
    if (path.endsWith('/ListItems')) listItemsRequests.push(ListItemsRequest.decode(request));
  });
  const revalidated: string[][] = [];
  const telemetry: NodeTelemetry | undefined = options.telemetry
    ? startNodeTelemetry(config, {
        service: 'render',
        release: 'test-build',
        ignoreTransactions: ignoredTransactions(config.SENTRY_TUNNEL),
      })
    : undefined;
  const createApp = options.app ?? createBenchApp;
  const served = await startServedApp(createApp({ dataTransport: transport }), {
    config,
    env: settings,
    logger,
  });
  const app = await buildRenderApp({
    config,
    logger,
    served,
    assets: options.assets ?? {
      directory: undefined,
      scripts: ['/assets/client-test.js'],
      contentHash: 'test',
    },
    revalidate: async (tags) => void revalidated.push([...tags]),
    ...(telemetry && { telemetry }),
  });
  await app.ready();
  return {
    app,
    data,
    logged,
    revalidated,
    listItemsRequests,
    callMetadata,
    async stop() {
      await app.close();
      await served.running.close();
      await telemetry?.close(2000);
      transport.close();
      await data.stop();
    },
  };
}
