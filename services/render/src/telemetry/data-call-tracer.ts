/**
 * The tracer the render service gives an app for its gRPC calls: each call attempt is a Sentry
 * `grpc.client` span whose trace headers travel as metadata (when telemetry is on), and its
 * duration and status code go to `grpc_client_handling_seconds` (when metrics are on).
 */
import type { GrpcCallTracer } from '@strata/web/server';
import { grpcCodeOf, type GrpcCallObserver } from '@strata/metrics';
import { traceMetadata, type NodeTelemetry } from '@strata/telemetry';

export function dataCallTracer(
  telemetry: NodeTelemetry | undefined,
  observe: GrpcCallObserver | undefined,
): GrpcCallTracer | undefined {
  if (!telemetry?.enabled && !observe) return undefined;
  return async (method, send) => {
    const started = performance.now();
    try {
      const answer = await (telemetry?.enabled
        ? telemetry.traceGrpcClientCall(method, (trace) => send(traceMetadata(trace)))
        : send({}));
      observe?.(method, 0, (performance.now() - started) / 1000);
      return answer;
    } catch (error) {
      observe?.(method, grpcCodeOf(error), (performance.now() - started) / 1000);
      throw error;
    }
  };
}
