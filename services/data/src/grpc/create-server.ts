/**
 * Assembles the grpc-js server: CatalogService, the standard health service and reflection
 * (so grpcurl-style clients can list and call it without .proto files), every call measured
 * when the service keeps metrics.
 */
import * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import {
  CATALOG_SERVICE_NAME,
  catalogServiceDefinition,
  PROTO_ROOT,
  SERVICE_PROTO_FILES,
} from '@strata/proto';
import type { GrpcServerObserver } from '@strata/metrics';
import { HealthImplementation } from 'grpc-health-check';
import { createCatalogHandlers, type CatalogHandlerDeps } from './catalog-handlers.js';
import { metricsInterceptor } from './metrics-interceptor.js';

/** The server plus the health switch the lifecycle flips. */
export interface DataGrpcServer {
  readonly server: grpc.Server;
  setServing(serving: boolean): void;
}

// Keepalive lets idle WatchChanges streams survive proxies and detects dead peers.
const SERVER_OPTIONS: grpc.ServerOptions = {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.keepalive_permit_without_calls': 1,
  'grpc.http2.min_ping_interval_without_data_ms': 10_000,
  'grpc.max_receive_message_length': 4 * 1024 * 1024,
};

/** What the server needs: the handlers' dependencies, and where served calls are recorded. */
export interface DataGrpcServerDeps extends CatalogHandlerDeps {
  /** Unset: calls are not measured. */
  readonly observeCall?: GrpcServerObserver;
}

/** Builds the server with every service registered (not yet bound). */
export function createDataGrpcServer(deps: DataGrpcServerDeps): DataGrpcServer {
  const server = new grpc.Server({
    ...SERVER_OPTIONS,
    interceptors: deps.observeCall ? [metricsInterceptor(deps.observeCall)] : [],
  });
  server.addService(catalogServiceDefinition(), createCatalogHandlers(deps));

  const health = new HealthImplementation({
    '': 'NOT_SERVING',
    [CATALOG_SERVICE_NAME]: 'NOT_SERVING',
  });
  health.addToServer(server);

  const definition = loadSync([...SERVICE_PROTO_FILES], { includeDirs: [PROTO_ROOT] });
  new ReflectionService(definition).addToServer(server);

  return {
    server,
    setServing(serving) {
      const state = serving ? 'SERVING' : 'NOT_SERVING';
      health.setStatus('', state);
      health.setStatus(CATALOG_SERVICE_NAME, state);
    },
  };
}
