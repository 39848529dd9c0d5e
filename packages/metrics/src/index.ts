/** Standard Prometheus histograms shared by the services (stock dashboards read these names). */
export { registerHttpMetrics, type HttpMetricsOptions } from './http-metrics.js';
export {
  grpcCallHistogram,
  grpcCodeOf,
  grpcServerHistogram,
  grpcTypeOf,
  type GrpcCallObserver,
  type GrpcServerObserver,
  type GrpcType,
} from './grpc-metrics.js';
