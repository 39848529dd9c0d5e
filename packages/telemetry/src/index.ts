export {
  telemetryConfigFields,
  relayTunnelUrl,
  type TelemetrySettings,
} from './telemetry-config.js';
export {
  DISABLED_TELEMETRY,
  startNodeTelemetry,
  type CurrentTrace,
  type NodeTelemetry,
  type ServiceIdentity,
} from './node-telemetry.js';
export {
  BAGGAGE_METADATA,
  SENTRY_TRACE_METADATA,
  TRACEPARENT_METADATA,
  traceHeadersFromMetadata,
  traceMetadata,
  type GrpcTraceHeaders,
} from './grpc-trace-headers.js';
export { traceGrpcClientCall } from './grpc-client-span.js';
export { sentryTraceFromTraceparent } from './w3c-traceparent.js';
export { tracestateToForward } from './w3c-tracestate.js';
