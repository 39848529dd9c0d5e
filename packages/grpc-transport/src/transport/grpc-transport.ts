/**
 * gRPC over node:http2 to every replica behind a target: unary calls and server streams on one
 * set of connections, each call on the replica the replica set picks, optionally over TLS.
 */
import { status } from '@grpc/grpc-js';
import {
  createReplicaSet,
  type ReplicaReach,
  type ReplicaSetOptions,
} from '../replicas/replica-set.js';
import { createAnswerHandoff } from './answer-handoff.js';
import { GrpcCallError } from './call-error.js';
import { MAX_RESPONSE_BYTES } from './grpc-framing.js';
import { callServerStream, type ServerStreamCall } from './server-stream.js';
import { callUnary, type CallOptions } from './unary-call.js';

export interface TransportOptions extends ReplicaSetOptions {
  /** Cap on one answer message (grpc-js's grpc.max_receive_message_length; 4 MiB). */
  readonly maxResponseBytes?: number | undefined;
}

export interface GrpcTransport {
  /** Resolves with the answer's message bytes; rejects with a GrpcCallError. */
  unary(path: string, request: Uint8Array, options: CallOptions): Promise<Buffer>;
  serverStream<Message>(
    path: string,
    request: Uint8Array,
    decode: (bytes: Buffer) => Message,
    metadata?: Readonly<Record<string, string>>,
  ): ServerStreamCall<Message>;
  /** The replica addresses calls are spread over now. */
  addresses(): string[];
  /** Readiness: how many replicas answer a PING within `timeoutMs` (connecting if needed). */
  probe(timeoutMs: number): Promise<ReplicaReach>;
  close(): void;
}

/** `target`: host:port (IPv6 in brackets), or several separated by commas. */
export function createGrpcTransport(target: string, options: TransportOptions = {}): GrpcTransport {
  const replicas = createReplicaSet(target, options);
  const context = {
    replicas,
    handoff: createAnswerHandoff(),
    maxResponseBytes: options.maxResponseBytes ?? MAX_RESPONSE_BYTES,
  };
  let closed = false;
  const refused = () =>
    new GrpcCallError({ code: status.UNAVAILABLE, details: 'the client is closed' });
  return {
    unary: (path, request, callOptions) =>
      closed ? Promise.reject(refused()) : callUnary(context, path, request, callOptions),
    serverStream: (path, request, decode, metadata) =>
      callServerStream(context, path, request, decode, metadata),
    addresses: () => replicas.addresses(),
    probe: (timeoutMs) => replicas.probe(timeoutMs),
    close() {
      closed = true;
      replicas.close();
    },
  };
}
