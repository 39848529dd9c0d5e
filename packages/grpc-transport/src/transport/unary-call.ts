/**
 * Unary gRPC calls straight on node:http2. grpc-js builds a resolving → retrying →
 * load-balancing → subchannel call chain, a Metadata object and an AsyncResource per call;
 * on the render service's hot reads that cost more than the rest of the call
 * (bench/render/RESULTS.md, "Unary reads without grpc-js"). The wire format is the same, so the
 * server cannot tell the difference. Answers reach their callers through
 * answer-handoff.ts, one per event-loop turn.
 */
import http2 from 'node:http2';
import { status } from '@grpc/grpc-js';
import type { Replica, ReplicaSet } from '../replicas/replica-set.js';
import type { AnswerHandoff } from './answer-handoff.js';
import { openCall } from './open-call.js';
import {
  GrpcCallError,
  cancelled,
  failureOf,
  REPLICA_FAILURE_CODES,
  unavailable,
  type StreamEnd,
} from './call-error.js';
import { frameMessage, grpcTimeout, readUnaryMessage } from './grpc-framing.js';

/** What one call sends besides its message. */
export interface CallOptions {
  readonly deadlineMs: number;
  /** Extra request headers (gRPC metadata): lower-case ASCII names and values, none of gRPC's own. */
  readonly metadata?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal | undefined;
}

/** What a unary call needs from the transport around it. */
export interface UnaryContext {
  readonly replicas: ReplicaSet;
  readonly handoff: AnswerHandoff;
  readonly maxResponseBytes: number;
}

const { NGHTTP2_CANCEL } = http2.constants;

type Outcome = { message: Buffer } | { error: GrpcCallError };

/** Sends one call to the replica the set picks; resolves with the answer's message bytes. */
export function callUnary(
  context: UnaryContext,
  path: string,
  request: Uint8Array,
  options: CallOptions,
): Promise<Buffer> {
  if (options.signal?.aborted) return Promise.reject(cancelled());
  const picked = context.replicas.pick();
  if (!(picked instanceof Promise)) return send(context, picked, path, request, options);
  return picked.then(
    (replica) => send(context, replica, path, request, options),
    (error: unknown) => Promise.reject(unavailable(error)),
  );
}

function send(
  context: UnaryContext,
  replica: Replica,
  path: string,
  request: Uint8Array,
  options: CallOptions,
): Promise<Buffer> {
  const { replicas, handoff, maxResponseBytes: maxBytes } = context;
  return new Promise<Buffer>((resolve, reject) => {
    const used = replica.pool.current();
    const startedAt = Date.now();
    const stream = openCall(used, path, grpcTimeout(options.deadlineMs), options.metadata);
    if (stream instanceof GrpcCallError) {
      reject(stream);
      return;
    }
    replica.pool.began(used);
    replicas.began(replica);
    const chunks: Buffer[] = [];
    let received = 0;
    let headers: http2.IncomingHttpHeaders | undefined;
    let trailers: http2.IncomingHttpHeaders | undefined;
    let streamError: unknown;
    let settled: Outcome | undefined;

    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = outcome;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      // Not here, in the poll phase: see answer-handoff.ts.
      if ('message' in outcome) handoff(() => resolve(outcome.message));
      else handoff(() => reject(outcome.error));
    };
    const abandon = (error: GrpcCallError) => {
      settle({ error });
      if (!stream.closed) stream.close(NGHTTP2_CANCEL);
    };
    const onAbort = () => abandon(cancelled());
    const timer = setTimeout(() => {
      abandon(
        new GrpcCallError({
          code: status.DEADLINE_EXCEEDED,
          details: `deadline of ${options.deadlineMs} ms exceeded`,
        }),
      );
      replica.pool.suspect(used, startedAt);
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
          new GrpcCallError({
            code: status.RESOURCE_EXHAUSTED,
            details: `answer exceeds the ${maxBytes}-byte limit`,
          }),
        );
    });
    stream.on('error', (error) => (streamError = error));
    stream.on('close', () => {
      replica.pool.ended(used);
      if (!settled) {
        const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received);
        const end = {
          headers,
          trailers,
          rstCode: stream.rstCode,
          streamError,
          connectionLost: used.session.destroyed,
        };
        settle(outcomeOf(end, body, maxBytes));
      }
      const failed = 'error' in settled! && REPLICA_FAILURE_CODES.has(settled.error.code);
      replicas.ended(replica, failed);
    });
    stream.end(frameMessage(request));
  });
}

/** How a finished stream turns into an answer or an error. */
function outcomeOf(end: StreamEnd, body: Buffer, maxBytes: number): Outcome {
  const failure = failureOf(end);
  if (failure) return { error: failure };
  const read = readUnaryMessage(body, maxBytes);
  return 'message' in read ? read : { error: new GrpcCallError(read.failure) };
}
