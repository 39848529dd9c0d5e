/** Standard Prometheus histograms shared by the services (stock dashboards read these names). */
export { registerHttpMetrics } from './http-metrics.js';
export { grpcCallHistogram, grpcCodeOf, type GrpcCallObserver } from './grpc-metrics.js';
