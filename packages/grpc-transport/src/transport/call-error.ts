/**
 * The one error every call fails with: a gRPC status (code and details) and the
 * trailers' metadata, shaped like grpc-js's ServiceError so status-detail readers work on it.
 */
import http2 from 'node:http2';
import { Metadata, status } from '@grpc/grpc-js';
import { statusFromHttp, statusOf, type CallStatus } from './grpc-framing.js';

export class GrpcCallError extends Error {
  readonly code: status;
  readonly details: string;
  readonly metadata: Metadata;

  constructor(outcome: CallStatus, metadata: Metadata = new Metadata()) {
    super(`${outcome.code} ${status[outcome.code] ?? 'UNKNOWN'}: ${outcome.details}`);
    this.name = 'GrpcCallError';
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

export function cancelled(): GrpcCallError {
  return new GrpcCallError({ code: status.CANCELLED, details: 'the call was cancelled' });
}

const { NGHTTP2_CANCEL, NGHTTP2_NO_ERROR, NGHTTP2_REFUSED_STREAM, NGHTTP2_ENHANCE_YOUR_CALM } =
  http2.constants;

/**
 * The stream ended without a status: why, in gRPC's terms. A reset from the server is mapped
 * by its code as grpc-js maps it; a lost or refused connection is UNAVAILABLE.
 */
export function unavailable(error: unknown, rstCode?: number): GrpcCallError {
  const reason = error instanceof Error ? error.message : 'the stream ended without a status';
  const serverReset =
    rstCode !== undefined &&
    rstCode !== NGHTTP2_NO_ERROR &&
    (!error || (error as { code?: unknown }).code === 'ERR_HTTP2_STREAM_ERROR');
  if (!serverReset) return new GrpcCallError({ code: status.UNAVAILABLE, details: reason });
  const code =
    rstCode === NGHTTP2_REFUSED_STREAM
      ? status.UNAVAILABLE
      : rstCode === NGHTTP2_ENHANCE_YOUR_CALM
        ? status.RESOURCE_EXHAUSTED
        : rstCode === NGHTTP2_CANCEL
          ? status.CANCELLED
          : status.INTERNAL;
  return new GrpcCallError({ code, details: `the server reset the stream (code ${rstCode})` });
}

/** The error for answer headers that are not a gRPC answer (a proxy, a web server), if so. */
export function notGrpc(headers: http2.IncomingHttpHeaders): GrpcCallError | undefined {
  const httpStatus = Number(headers[':status']);
  if (httpStatus !== 200) return new GrpcCallError(statusFromHttp(httpStatus));
  const type = String(headers['content-type'] ?? '');
  if (type.startsWith('application/grpc')) return undefined;
  return new GrpcCallError({
    code: status.UNKNOWN,
    details: `the server answered with content-type "${type}", not gRPC`,
  });
}

/** What a call's stream saw by the time it closed. */
export interface StreamEnd {
  readonly headers: http2.IncomingHttpHeaders | undefined;
  readonly trailers: http2.IncomingHttpHeaders | undefined;
  readonly rstCode: number | undefined;
  readonly streamError: unknown;
  /** The stream closed with its connection: its reset code is local, not the server's. */
  readonly connectionLost: boolean;
}

/** How a unary call or a stream ended, as an error; undefined when it ended with status OK. */
export function failureOf(end: StreamEnd): GrpcCallError | undefined {
  const rstCode = end.connectionLost ? undefined : end.rstCode;
  const block = end.trailers ?? end.headers; // a trailers-only answer puts its status in the headers
  const stated = block && statusOf(block);
  if (stated)
    return stated.code === status.OK
      ? undefined
      : new GrpcCallError(stated, Metadata.fromHttp2Headers(block));
  if (!end.headers || end.streamError) return unavailable(end.streamError, rstCode);
  return notGrpc(end.headers) ?? unavailable(undefined, rstCode);
}
