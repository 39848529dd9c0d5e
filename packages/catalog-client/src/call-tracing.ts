/**
 * How the catalogue client traces its own calls: each attempt runs in a `grpc.client` span of
 * the process's telemetry SDK (when one is started) whose trace headers travel as the call's
 * metadata, and is counted in `grpc_client_handling_seconds` (when given a metrics registry).
 */
import { grpcCallHistogram, grpcCodeOf } from '@strata/metrics';
import { traceGrpcClientCall, traceMetadata } from '@strata/telemetry';
import type { Registry } from 'prom-client';

/**
 * Wraps every attempt of a call (`method` is Service/Method): records it, and hands `send` the
 * metadata that carries the trace to the data service.
 */
export type CallTracer = <T>(
  method: string,
  send: (metadata: Readonly<Record<string, string>>) => Promise<T>,
) => Promise<T>;

/** The client's tracer; `metrics` is where the call histogram goes (absent: not counted). */
export function callTracer(metrics: Registry | undefined): CallTracer {
  const observe = metrics && grpcCallHistogram(metrics, 'client');
  // Promise callbacks rather than an async function: every read of a page render comes through
  // here, and the success path should cost one chained call.
  return (method, send) => {
    const started = performance.now();
    return traceGrpcClientCall(method, (trace) => send(traceMetadata(trace))).then(
      (answer) => {
        observe?.(method, 0, secondsSince(started));
        return answer;
      },
      (error: unknown) => {
        observe?.(method, grpcCodeOf(error), secondsSince(started));
        throw error;
      },
    );
  };
}

function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}
