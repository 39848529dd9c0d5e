/**
 * The catalogue contract's client: one CatalogClient for reads, writes and the change feed, over
 * one gRPC transport (node:http2) that spreads calls over every data replica and can use TLS.
 */
export {
  createCatalogClient,
  type CallContext,
  type CallTracer,
  type CatalogClient,
  type CatalogClientOptions,
} from './catalog-client.js';
export type { RetryPolicy } from './read-retry.js';
export { CatalogCallError } from './transport/call-error.js';
export {
  createGrpcTransport,
  type GrpcTransport,
  type TransportOptions,
} from './transport/grpc-transport.js';
export type { ServerStreamCall } from './transport/server-stream.js';
export type { CallOptions } from './transport/unary-call.js';
export type { TlsSettings } from './transport/tls-settings.js';
export type { ConnectionTiming } from './transport/http2-connection.js';
export type { EjectionPolicy } from './replicas/replica-choice.js';
export type { ReplicaReach } from './replicas/replica-set.js';
export {
  createChangeWatcher,
  type ChangeWatcher,
  type ChangeWatcherDeps,
} from './change-watcher.js';
