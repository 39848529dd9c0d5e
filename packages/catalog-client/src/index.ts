/**
 * The catalogue contract's client: one CatalogClient for reads, writes and the change feed, over
 * one gRPC transport (@strata/grpc-transport, on node:http2) that spreads calls over every data replica and can use TLS.
 */
export {
  createCatalogClient,
  type CallContext,
  type CatalogClient,
  type CatalogClientOptions,
} from './catalog-client.js';
export type { CallTracer } from './call-tracing.js';
export { CatalogError, type CatalogErrorKind } from './catalog-error.js';
// The transport is @strata/grpc-transport's; re-exported so callers need one import, and its
// error under the name catalogue code has always used.
export {
  GrpcCallError as CatalogCallError,
  createGrpcTransport,
  type CallOptions,
  type ConnectionTiming,
  type EjectionPolicy,
  type GrpcTransport,
  type ReplicaReach,
  type RetryPolicy,
  type ServerStreamCall,
  type TlsSettings,
  type TransportOptions,
} from '@strata/grpc-transport';
export {
  createChangeWatcher,
  type ChangeWatcher,
  type ChangeWatcherDeps,
} from './change-watcher.js';
