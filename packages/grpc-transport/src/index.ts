/**
 * gRPC over node:http2 for any service: unary calls and server streams on one set of
 * connections to every replica behind a target, with gRPC framing, deadlines, the status model
 * (GrpcCallError) and optional TLS. It moves bytes; the caller brings the method paths and codecs.
 */
export { GrpcCallError } from './transport/call-error.js';
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
export type { AddressResolver } from './replicas/target-addresses.js';
export {
  READ_RETRY,
  backoffDelay,
  withReadRetry,
  type ReadRetryOptions,
  type RetryPolicy,
} from './retry/read-retry.js';
