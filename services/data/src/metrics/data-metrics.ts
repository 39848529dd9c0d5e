/**
 * The data service's Prometheus registry: Node's default metrics under their standard names
 * (`process_*`, `nodejs_*`, as render and relay expose them) and the served-call histogram
 * `grpc_server_handling_seconds`, so stock Node.js and gRPC dashboards read them unchanged.
 */
import { grpcServerHistogram, type GrpcServerObserver } from '@strata/metrics';
import { collectDefaultMetrics, Registry } from 'prom-client';

export interface DataMetrics {
  readonly registry: Registry;
  /** Records one served call (the gRPC server's interceptor calls it). */
  readonly observeCall: GrpcServerObserver;
}

export function createDataMetrics(): DataMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return { registry, observeCall: grpcServerHistogram(registry) };
}
