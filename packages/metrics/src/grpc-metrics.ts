/**
 * gRPC call durations as the histograms the common gRPC dashboards read
 * (`grpc_client_handling_seconds` and `grpc_server_handling_seconds`, labelled `grpc_service`,
 * `grpc_method` and `grpc_code`).
 */
import { status as grpcStatus } from '@grpc/grpc-js';
import { Histogram, type Registry } from 'prom-client';

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** Records one call: `method` is Service/Method, `code` the gRPC status code (0 for OK). */
export type GrpcCallObserver = (method: string, code: number, seconds: number) => void;

export function grpcCallHistogram(registry: Registry, side: 'client' | 'server'): GrpcCallObserver {
  const histogram = new Histogram({
    name: `grpc_${side}_handling_seconds`,
    help: `Duration of gRPC calls ${side === 'client' ? 'made' : 'served'}, by method and status code`,
    labelNames: ['grpc_service', 'grpc_method', 'grpc_code'],
    buckets: BUCKETS,
    registers: [registry],
  });
  return (method, code, seconds) => {
    const slash = method.lastIndexOf('/');
    histogram.observe(
      {
        grpc_service: method.slice(0, slash),
        grpc_method: method.slice(slash + 1),
        grpc_code: grpcStatus[code] ?? String(code),
      },
      seconds,
    );
  };
}

/** The gRPC code a call failed with (UNKNOWN when the error carries none). */
export function grpcCodeOf(error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : grpcStatus.UNKNOWN;
}
