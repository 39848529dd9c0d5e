/**
 * A `grpc.client` span for one outgoing gRPC call, through the process's active Sentry client:
 * any library making calls traces them itself, with no handle from the service that started the
 * SDK. Without an SDK started (no SENTRY_DSN) the call runs untraced and sends no trace headers.
 */
import * as Sentry from '@sentry/node';
import { grpcCallSpan, type GrpcTraceHeaders } from './grpc-trace-headers.js';

/** Runs one outgoing gRPC call in a `grpc.client` span; `run` gets the headers to send. */
export function traceGrpcClientCall<T>(
  method: string,
  run: (headers: GrpcTraceHeaders) => Promise<T>,
): Promise<T> {
  if (!Sentry.getClient()) return run({});
  return Sentry.startSpan(grpcCallSpan('client', method), () => {
    const data = Sentry.getTraceData({ propagateTraceparent: true });
    return run({
      ...(data['sentry-trace'] && { sentryTrace: data['sentry-trace'] }),
      ...(data.baggage && { baggage: data.baggage }),
      ...(data.traceparent && { traceparent: data.traceparent }),
    });
  });
}
