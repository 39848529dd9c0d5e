/**
 * The one error every catalogue call fails with: a gRPC status (code and details) and the
 * trailers' metadata, shaped like grpc-js's ServiceError so status-detail readers work on it.
 */
import http2 from 'node:http2';
import { Metadata, status } from '@grpc/grpc-js';
import type { CallStatus } from './grpc-framing.js';

export class CatalogCallError extends Error {
  readonly code: status;
  readonly details: string;
  readonly metadata: Metadata;

  constructor(outcome: CallStatus, metadata: Metadata = new Metadata()) {
    super(`${outcome.code} ${status[outcome.code] ?? 'UNKNOWN'}: ${outcome.details}`);
    this.name = 'CatalogCallError';
    this.code = outcome.code;
    this.details = outcome.details;
    this.metadata = metadata;
  }
}

/** Codes that say the replica could not serve the call (as opposed to the caller's mistake). */
export const REPLICA_FAILURE_CODES: ReadonlySet<number> = new Set([
  status.UNAVAILABLE,
  status.INTERNAL,
  status.UNKNOWN,
  status.DEADLINE_EXCEEDED,
]);

export function cancelled(): CatalogCallError {
  return new CatalogCallError({ code: status.CANCELLED, details: 'the call was cancelled' });
}

const { NGHTTP2_CANCEL, NGHTTP2_NO_ERROR, NGHTTP2_REFUSED_STREAM, NGHTTP2_ENHANCE_YOUR_CALM } =
  http2.constants;

/**
 * The stream ended without a status: why, in gRPC's terms. A reset from the server is mapped
 * by its code as grpc-js maps it; a lost or refused connection is UNAVAILABLE.
 */
export function unavailable(error: unknown, rstCode?: number): CatalogCallError {
  const reason = error instanceof Error ? error.message : 'the stream ended without a status';
  const serverReset =
    rstCode !== undefined &&
    rstCode !== NGHTTP2_NO_ERROR &&
    (!error || (error as { code?: unknown }).code === 'ERR_HTTP2_STREAM_ERROR');
  if (!serverReset) return new CatalogCallError({ code: status.UNAVAILABLE, details: reason });
  const code =
    rstCode === NGHTTP2_REFUSED_STREAM
      ? status.UNAVAILABLE
      : rstCode === NGHTTP2_ENHANCE_YOUR_CALM
        ? status.RESOURCE_EXHAUSTED
        : rstCode === NGHTTP2_CANCEL
          ? status.CANCELLED
          : status.INTERNAL;
  return new CatalogCallError({ code, details: `the server reset the stream (code ${rstCode})` });
}
