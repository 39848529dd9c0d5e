/**
 * The catalogue as a Strata app: its pages read and write through the gRPC data service, its
 * JSON API lives under /api, and the data service's change feed keeps the render service's
 * segment cache right whoever writes.
 */
import {
  createCatalogClient,
  createChangeWatcher,
  createGrpcTransport,
  type GrpcTransport,
} from '@strata/catalog-client';
import type { SegmentDefinition } from '@strata/web';
import type { AppHost, RunningApp, StrataApp } from '@strata/web/server';
import { catalogActions } from './actions/catalog-actions.js';
import { catalogApi } from './api/catalog-api.js';
import { dataTlsSettings, loadCatalogConfig } from './config.js';
import { createCatalogGateway } from './gateway/catalog-gateway.js';
import { serverRoutes } from './server-routes.js';
import type { AppServices } from './services.js';

/** How long a data replica may take to answer the readiness probe's PING. */
const DATA_PROBE_MS = 1000;

/** Options of tests and of apps built on the catalogue; the app RENDER_APP loads has none. */
export interface CatalogAppOptions {
  /** Connections to the data replicas to use instead of opening them (the app leaves them open). */
  readonly dataTransport?: GrpcTransport;
  /** Root segments served before the catalogue's (the bench app's), given the same services. */
  readonly extraRoots?: readonly SegmentDefinition<AppServices>[];
}

/** The catalogue app, optionally over a given transport. */
export function createCatalogApp(options: CatalogAppOptions = {}): StrataApp<AppServices> {
  return {
    name: 'catalog',
    actions: Object.values(catalogActions),
    start: async (host) => startCatalog(host, options),
  };
}

function startCatalog(host: AppHost, options: CatalogAppOptions): RunningApp<AppServices> {
  const config = loadCatalogConfig(host.env);
  const transport =
    options.dataTransport ??
    createGrpcTransport(config.DATA_SERVICE_ADDRESS, { tls: dataTlsSettings(config) });
  const catalog = createCatalogClient(transport, {
    deadlineMs: config.DATA_DEADLINE,
    onRetry: (method, error) => host.logger.warn({ method, err: error }, 'retrying a data read'),
    // The client traces its own calls; it counts them in the service's registry.
    ...(host.metrics && { metrics: host.metrics }),
  });
  const running: RunningApp<AppServices> = {
    routes: serverRoutes({
      errorDrills: config.RENDER_ERROR_DRILLS,
      extraRoots: options.extraRoots ?? [],
    }),
    // The request's id and a W3C caller's tracestate go with its data calls.
    servicesFor: (request) => ({ catalog: createCatalogGateway(catalog, request) }),
    handlers: catalogApi,
    // Ready while at least one data replica answers a PING.
    async readiness() {
      const data = await transport.probe(DATA_PROBE_MS);
      return { ready: data.reachable > 0, details: { data } };
    },
    watchChanges(subscriber) {
      const watcher = createChangeWatcher({
        client: catalog,
        onTags: subscriber.onTags,
        onReset: subscriber.onReset,
        logger: host.logger,
        random: Math.random,
      });
      watcher.start();
      return watcher;
    },
    async close() {
      if (!options.dataTransport) transport.close();
    },
  };
  return running;
}
