/**
 * gRPC call durations as the histograms the common gRPC dashboards read (the grpc-ecosystem
 * names): `grpc_client_handling_seconds{grpc_service, grpc_method, grpc_code}` for calls made and
 * `grpc_server_handling_seconds{grpc_type, grpc_service, grpc_method, grpc_code}` for calls served.
 */
import { status as grpcStatus } from '@grpc/grpc-js';
import { Histogram, type Registry } from 'prom-client';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Records one call: `method` is Service/Method, `code` the gRPC status code (0 for OK). */
export type GrpcCallObserver = (method: string, code: number, seconds: number) => void;

/** How a method streams, as grpc-ecosystem spells it in `grpc_type`. */
export type GrpcType = 'unary' | 'client_stream' | 'server_stream' | 'bidi_stream';

/** Records one served call; `type` says how the method streams. */
export type GrpcServerObserver = (
  type: GrpcType,
  method: string,
  code: number,
  seconds: number,
) => void;

/** Call durations on the calling side (the server side is grpcServerHistogram). */
export function grpcCallHistogram(registry: Registry, side: 'client'): GrpcCallObserver {
  // One per registry: every client counting into it shares the histogram.
  const name = `grpc_${side}_handling_seconds`;
  const existing = registry.getSingleMetric(name) as Histogram | undefined;
  const histogram =
    existing ??
    new Histogram({
      name,
      help: 'Duration of gRPC calls made, by method and status code',
      labelNames: ['grpc_service', 'grpc_method', 'grpc_code'],
      buckets: BUCKETS,
      registers: [registry],
    });
  const labels = labelCache(callLabels);
  return (method, code, seconds) => histogram.observe(labels(method, code), seconds);
}

/** Call durations on the serving side: from the call's arrival to its status being sent. */
export function grpcServerHistogram(registry: Registry): GrpcServerObserver {
  const histogram = new Histogram({
    name: 'grpc_server_handling_seconds',
    help: 'Duration of gRPC calls served, by method, streaming type and status code',
    labelNames: ['grpc_type', 'grpc_service', 'grpc_method', 'grpc_code'],
    buckets: BUCKETS,
    registers: [registry],
  });
  const labelsOf = (type: GrpcType): CallLabels<ServerLabels> =>
    labelCache((method, code) => ({ grpc_type: type, ...callLabels(method, code) }));
  const labelsByType: Record<GrpcType, CallLabels<ServerLabels>> = {
    unary: labelsOf('unary'),
    client_stream: labelsOf('client_stream'),
    server_stream: labelsOf('server_stream'),
    bidi_stream: labelsOf('bidi_stream'),
  };
  return (type, method, code, seconds) =>
    histogram.observe(labelsByType[type](method, code), seconds);
}

/** The `grpc_type` of a method from its descriptor's streaming flags. */
export function grpcTypeOf(requestStream: boolean, responseStream: boolean): GrpcType {
  if (requestStream) return responseStream ? 'bidi_stream' : 'client_stream';
  return responseStream ? 'server_stream' : 'unary';
}

/** The gRPC code a call failed with (UNKNOWN when the error carries none). */
export function grpcCodeOf(error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : grpcStatus.UNKNOWN;
}

type ClientLabels = ReturnType<typeof callLabels>;
type ServerLabels = ClientLabels & { grpc_type: GrpcType };
type CallLabels<Labels> = (method: string, code: number) => Labels;

/**
 * `make`, remembered per method and code: a service has a handful of each, and observing a call
 * should not build (and parse the method into) a new label object every time.
 */
function labelCache<Labels>(make: CallLabels<Labels>): CallLabels<Labels> {
  const byMethod = new Map<string, Map<number, Labels>>();
  return (method, code) => {
    let byCode = byMethod.get(method);
    if (!byCode) byMethod.set(method, (byCode = new Map()));
    let labels = byCode.get(code);
    if (!labels) byCode.set(code, (labels = make(method, code)));
    return labels;
  };
}

// `method` may carry the path's leading slash (/pkg.Service/Method); labels never do.
function callLabels(method: string, code: number) {
  const slash = method.lastIndexOf('/');
  return {
    grpc_service: method.slice(method.startsWith('/') ? 1 : 0, Math.max(slash, 0)),
    grpc_method: method.slice(slash + 1),
    grpc_code: grpcStatus[code] ?? String(code),
  };
}
