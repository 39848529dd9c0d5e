/**
 * A server-streaming gRPC call (the change feed) on the same replicas and connections as the
 * unary calls. It emits what a grpc-js stream emits, so a reader written for one reads the other:
 * 'metadata' (the answer headers), 'data' (each decoded message), then 'end', or 'error' with a
 * GrpcCallError. Pausing stops reading, and HTTP/2 flow control holds the server back.
 */
import { EventEmitter } from 'node:events';
import http2 from 'node:http2';
import { Metadata, status } from '@grpc/grpc-js';
import type { ReplicaSet } from '../replicas/replica-set.js';
import { GrpcCallError, cancelled, failureOf, notGrpc, unavailable } from './call-error.js';
import { createMessageReader, frameMessage, statusOf } from './grpc-framing.js';
import { openCall } from './open-call.js';

/** A running server-streaming call. */
export interface ServerStreamCall<Message> extends EventEmitter {
  on(event: 'metadata', listener: (metadata: Metadata) => void): this;
  on(event: 'data', listener: (message: Message) => void): this;
  on(event: 'error', listener: (error: GrpcCallError) => void): this;
  on(event: 'end', listener: () => void): this;
  pause(): void;
  resume(): void;
  isPaused(): boolean;
  /** Stops the call; it ends with a CANCELLED error. */
  cancel(): void;
}

/** Opens the stream on the replica the set picks. */
export function callServerStream<Message>(
  context: { readonly replicas: ReplicaSet; readonly maxResponseBytes: number },
  path: string,
  request: Uint8Array,
  decode: (bytes: Buffer) => Message,
  metadata: Readonly<Record<string, string>> = {},
): ServerStreamCall<Message> {
  const call = new EventEmitter() as ServerStreamCall<Message>;
  let stream: http2.ClientHttp2Stream | undefined;
  let paused = false;
  let finished = false;
  const finish = (error?: GrpcCallError) => {
    if (finished) return;
    finished = true;
    if (error) call.emit('error', error);
    else call.emit('end');
  };
  call.pause = () => {
    paused = true;
    stream?.pause();
  };
  call.resume = () => {
    paused = false;
    stream?.resume();
  };
  call.isPaused = () => paused;
  call.cancel = () => {
    if (stream && !stream.closed) stream.close(http2.constants.NGHTTP2_CANCEL);
    finish(cancelled());
  };

  const open = (replica: Awaited<ReturnType<ReplicaSet['pick']>>) => {
    if (finished) return;
    const used = replica.pool.current();
    const started = openCall(used, path, undefined, metadata);
    if (started instanceof GrpcCallError) {
      finish(started);
      return;
    }
    stream = started;
    const opened = stream;
    replica.pool.began(used);
    if (paused) opened.pause();
    const read = createMessageReader(context.maxResponseBytes);
    let headers: http2.IncomingHttpHeaders | undefined;
    let trailers: http2.IncomingHttpHeaders | undefined;
    let streamError: unknown;
    opened.on('response', (answer) => {
      headers = answer;
      const refusal = notGrpc(answer);
      if (refusal) return;
      if (statusOf(answer) === undefined) call.emit('metadata', Metadata.fromHttp2Headers(answer));
    });
    opened.on('trailers', (answer) => (trailers = answer));
    opened.on('data', (chunk: Buffer) => {
      if (finished) return;
      const result = read(chunk);
      if ('failure' in result) {
        finish(new GrpcCallError(result.failure));
        opened.close(http2.constants.NGHTTP2_CANCEL);
        return;
      }
      for (const message of result.messages) {
        let decoded: Message;
        try {
          decoded = decode(message);
        } catch (error) {
          const details = `a message could not be decoded: ${(error as Error).message}`;
          finish(new GrpcCallError({ code: status.INTERNAL, details }));
          opened.close(http2.constants.NGHTTP2_CANCEL);
          return;
        }
        call.emit('data', decoded);
      }
    });
    opened.on('error', (error) => (streamError = error));
    opened.on('close', () => {
      replica.pool.ended(used);
      const failure = failureOf({
        headers,
        trailers,
        rstCode: opened.rstCode,
        streamError,
        connectionLost: used.session.destroyed,
      });
      context.replicas.streamEnded(replica, failure?.code === status.UNAVAILABLE);
      finish(failure);
    });
    opened.end(frameMessage(request));
  };

  // Opened from a later tick: the caller attaches its listeners first.
  Promise.resolve()
    .then(() => context.replicas.pick())
    .then(open, (error: unknown) => finish(unavailable(error)));
  return call;
}
