/**
 * How a trace crosses a gRPC call: `sentry-trace` and `baggage` as metadata entries (the same
 * names and values as the HTTP headers), and how the call's span is named.
 */

/** The trace headers of one call, either side. */
export interface GrpcTraceHeaders {
  readonly sentryTrace?: string;
  readonly baggage?: string;
}

/** gRPC metadata keys that carry the trace. */
export const SENTRY_TRACE_METADATA = 'sentry-trace';
export const BAGGAGE_METADATA = 'baggage';

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
  return { ...(sentryTrace && { sentryTrace }), ...(baggage && { baggage }) };
}

/** The trace headers as outgoing metadata entries (the inverse of traceHeadersFromMetadata). */
export function traceMetadata(headers: GrpcTraceHeaders): Record<string, string> {
  const metadata: Record<string, string> = {};
  if (headers.sentryTrace) metadata[SENTRY_TRACE_METADATA] = headers.sentryTrace;
  if (headers.baggage) metadata[BAGGAGE_METADATA] = headers.baggage;
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
