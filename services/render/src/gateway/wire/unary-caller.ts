/**
 * Unary gRPC calls straight on node:http2, for the render service's hot reads. grpc-js builds a
 * resolving → retrying → load-balancing → subchannel call chain, a Metadata object and an
 * AsyncResource per call; on this path that was ~40% of a ListItems call's client CPU
 * (bench/render/RESULTS.md, "Unary reads without grpc-js"). The wire format is the same, so the
 * data service cannot tell the difference. Writes and the change stream stay on grpc-js.
 * Answers reach their callers through answer-handoff.ts, one per event-loop turn.
 */
import http2 from 'node:http2';
import { Metadata, status } from '@grpc/grpc-js';
import {
  frameMessage,
  grpcTimeout,
  MAX_RESPONSE_BYTES,
  readUnaryMessage,
  statusFromHttp,
  statusOf,
  type CallStatus,
} from './grpc-framing.js';
import { createAnswerHandoff } from './answer-handoff.js';
import { createConnectionPool, DEFAULT_TIMING, type ConnectionTiming } from './http2-connection.js';

/** What one call sends besides its message. */
export interface UnaryCallOptions {
  readonly deadlineMs: number;
  /** Extra request headers (gRPC metadata): lower-case ASCII names and values. */
  readonly metadata?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal | undefined;
}

/** Sends unary calls over one HTTP/2 connection, reopened when it is lost (http2-connection.ts). */
export interface UnaryCaller {
  /** Resolves with the answer's message bytes; rejects with a UnaryCallError. */
  call(path: string, request: Uint8Array, options: UnaryCallOptions): Promise<Buffer>;
  close(): void;
}

/** A failed call, shaped like grpc-js's ServiceError (code, details, metadata). */
export class UnaryCallError extends Error {
  readonly code: status;
  readonly details: string;
  readonly metadata: Metadata;

  constructor(outcome: CallStatus, metadata: Metadata = new Metadata()) {
    super(`${outcome.code} ${status[outcome.code] ?? 'UNKNOWN'}: ${outcome.details}`);
    this.name = 'UnaryCallError';
    this.code = outcome.code;
    this.details = outcome.details;
    this.metadata = metadata;
  }
}

const { NGHTTP2_CANCEL, NGHTTP2_NO_ERROR, NGHTTP2_REFUSED_STREAM, NGHTTP2_ENHANCE_YOUR_CALM } =
  http2.constants;

/** `address` is host:port, as grpc-js takes it (IPv6 in brackets). */
export function createUnaryCaller(
  address: string,
  limits: { readonly maxResponseBytes?: number; readonly timing?: Partial<ConnectionTiming> } = {},
): UnaryCaller {
  const maxBytes = limits.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const pool = createConnectionPool(`http://${address}`, { ...DEFAULT_TIMING, ...limits.timing });
  const handoff = createAnswerHandoff();
  let closed = false;

  function call(path: string, request: Uint8Array, options: UnaryCallOptions): Promise<Buffer> {
    if (closed)
      return Promise.reject(
        new UnaryCallError({ code: status.UNAVAILABLE, details: 'the caller is closed' }),
      );
    if (options.signal?.aborted) return Promise.reject(cancelled());
    return new Promise<Buffer>((resolve, reject) => {
      let stream: http2.ClientHttp2Stream;
      const used = pool.current();
      const startedAt = Date.now();
      try {
        stream = used.session.request({
          ':method': 'POST',
          ':path': path,
          'content-type': 'application/grpc',
          te: 'trailers',
          'grpc-timeout': grpcTimeout(options.deadlineMs),
          ...options.metadata,
        });
      } catch (error) {
        // A session that cannot open streams (out of stream ids, closing): retire it gently,
        // so calls in flight on it still finish; the next call opens a new one.
        used.session.close();
        reject(unavailable(error));
        return;
      }
      pool.began(used);
      const chunks: Buffer[] = [];
      let received = 0;
      let headers: http2.IncomingHttpHeaders | undefined;
      let trailers: http2.IncomingHttpHeaders | undefined;
      let streamError: unknown;
      let settled = false;

      const settle = (outcome: { message: Buffer } | { error: UnaryCallError }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        // Not here, in the poll phase: see answer-handoff.ts.
        if ('message' in outcome) handoff(() => resolve(outcome.message));
        else handoff(() => reject(outcome.error));
      };
      const abandon = (error: UnaryCallError) => {
        settle({ error });
        if (!stream.closed) stream.close(NGHTTP2_CANCEL);
      };
      const onAbort = () => abandon(cancelled());
      const timer = setTimeout(() => {
        abandon(
          new UnaryCallError({
            code: status.DEADLINE_EXCEEDED,
            details: `deadline of ${options.deadlineMs} ms exceeded`,
          }),
        );
        pool.suspect(used, startedAt);
      }, options.deadlineMs);
      options.signal?.addEventListener('abort', onAbort, { once: true });

      stream.on('response', (answer) => {
        headers = answer;
        used.lastAnswerAt = Date.now();
      });
      stream.on('trailers', (answer) => (trailers = answer));
      stream.on('data', (chunk: Buffer) => {
        received += chunk.length;
        chunks.push(chunk);
        if (received > maxBytes + 5)
          abandon(
            new UnaryCallError({
              code: status.RESOURCE_EXHAUSTED,
              details: `answer exceeds the ${maxBytes}-byte limit`,
            }),
          );
      });
      stream.on('error', (error) => (streamError = error));
      stream.on('close', () => {
        pool.ended(used);
        if (settled) return;
        const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
        settle(outcomeOf(headers, trailers, stream.rstCode, streamError, body, maxBytes));
      });
      stream.end(frameMessage(request));
    });
  }

  return {
    call,
    close() {
      closed = true;
      pool.close();
    },
  };
}

/** How a finished stream turns into an answer or an error. */
function outcomeOf(
  headers: http2.IncomingHttpHeaders | undefined,
  trailers: http2.IncomingHttpHeaders | undefined,
  rstCode: number | undefined,
  streamError: unknown,
  body: Buffer,
  maxBytes: number,
): { message: Buffer } | { error: UnaryCallError } {
  const block = trailers ?? headers; // a trailers-only answer puts its status in the headers
  const stated = block && statusOf(block);
  if (!stated) {
    if (!headers || streamError) return { error: unavailable(streamError, rstCode) };
    const httpStatus = Number(headers[':status']);
    if (httpStatus !== 200) return { error: new UnaryCallError(statusFromHttp(httpStatus)) };
    const type = String(headers['content-type'] ?? '');
    if (!type.startsWith('application/grpc'))
      return {
        error: new UnaryCallError({
          code: status.UNKNOWN,
          details: `the data service answered with content-type "${type}", not gRPC`,
        }),
      };
    return { error: unavailable(undefined, rstCode) };
  }
  if (stated.code !== status.OK)
    return { error: new UnaryCallError(stated, Metadata.fromHttp2Headers(block)) };
  const read = readUnaryMessage(body, maxBytes);
  return 'message' in read ? read : { error: new UnaryCallError(read.failure) };
}

function cancelled(): UnaryCallError {
  return new UnaryCallError({ code: status.CANCELLED, details: 'the call was cancelled' });
}

/**
 * The stream ended without a status: why, in gRPC's terms. A reset from the server is mapped
 * by its code as grpc-js maps it; a lost or refused connection is UNAVAILABLE.
 */
function unavailable(error: unknown, rstCode?: number): UnaryCallError {
  const reason = error instanceof Error ? error.message : 'the stream ended without a status';
  const serverReset =
    rstCode !== undefined &&
    rstCode !== NGHTTP2_NO_ERROR &&
    (!error || (error as { code?: unknown }).code === 'ERR_HTTP2_STREAM_ERROR');
  if (!serverReset) return new UnaryCallError({ code: status.UNAVAILABLE, details: reason });
  const code =
    rstCode === NGHTTP2_REFUSED_STREAM
      ? status.UNAVAILABLE
      : rstCode === NGHTTP2_ENHANCE_YOUR_CALM
        ? status.RESOURCE_EXHAUSTED
        : rstCode === NGHTTP2_CANCEL
          ? status.CANCELLED
          : status.INTERNAL;
  return new UnaryCallError({ code, details: `the server reset the stream (code ${rstCode})` });
}
