/**
 * How a trace crosses a gRPC call: `sentry-trace`, `baggage` and W3C `traceparent` as metadata
 * entries (the same names and values as the HTTP headers), so a gRPC peer instrumented with
 * OpenTelemetry joins the trace too, and how the call's span is named.
 */
import { sentryTraceFromTraceparent } from './w3c-traceparent.js';

/** The trace headers of one call, either side. */
export interface GrpcTraceHeaders {
  readonly sentryTrace?: string;
  readonly baggage?: string;
  readonly traceparent?: string;
}

/** gRPC metadata keys that carry the trace. */
export const SENTRY_TRACE_METADATA = 'sentry-trace';
export const BAGGAGE_METADATA = 'baggage';
export const TRACEPARENT_METADATA = 'traceparent';

/** The trace a server call continues: Sentry's headers, else the caller's traceparent. */
export function incomingTrace(headers: GrpcTraceHeaders): {
  sentryTrace: string | undefined;
  baggage: string | undefined;
} {
  return {
    sentryTrace: headers.sentryTrace ?? sentryTraceFromTraceparent(headers.traceparent),
    baggage: headers.baggage,
  };
}

/** Reads the trace headers out of incoming metadata values (first value of each key). */
export function traceHeadersFromMetadata(
  get: (key: string) => readonly unknown[],
): GrpcTraceHeaders {
  const first = (key: string) => {
    const value = get(key)[0];
    return typeof value === 'string' && value.length > 0 ? value : undefined;
  };
  const sentryTrace = first(SENTRY_TRACE_METADATA);
  const baggage = first(BAGGAGE_METADATA);
  const traceparent = first(TRACEPARENT_METADATA);
  return {
    ...(sentryTrace && { sentryTrace }),
    ...(baggage && { baggage }),
    ...(traceparent && { traceparent }),
  };
}

/** The trace headers as outgoing metadata entries (the inverse of traceHeadersFromMetadata). */
export function traceMetadata(headers: GrpcTraceHeaders): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (headers.sentryTrace) metadata[SENTRY_TRACE_METADATA] = headers.sentryTrace;
  if (headers.baggage) metadata[BAGGAGE_METADATA] = headers.baggage;
  if (headers.traceparent) metadata[TRACEPARENT_METADATA] = headers.traceparent;
  return metadata;
}

/** Span options of one gRPC call, following OpenTelemetry's rpc conventions. */
export function grpcCallSpan(side: 'client' | 'server', method: string) {
  const slash = method.lastIndexOf('/');
  return {
    name: method,
    op: `grpc.${side}`,
    attributes: {
      'rpc.system': 'grpc',
      'rpc.service': slash > 0 ? method.slice(0, slash) : method,
      'rpc.method': method.slice(slash + 1),
    },
  };
}
