/**
 * The parts of gRPC over HTTP/2 (grpc/grpc, doc/PROTOCOL-HTTP2.md) that the calls need, as pure
 * functions: the length-prefixed message (one, or a stream of them), the grpc-timeout header,
 * the status an answer ends with, and what an HTTP status means when no gRPC status came back.
 */
import { status } from '@grpc/grpc-js';

/** Default cap on one answer, as grpc-js's grpc.max_receive_message_length. */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** A call's outcome as gRPC states it: a code and its human-readable details. */
export interface CallStatus {
  readonly code: status;
  readonly details: string;
}

/** One uncompressed message: flag byte 0, 4-byte big-endian length, the bytes. */
export function frameMessage(message: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(5 + message.length);
  frame[0] = 0;
  frame.writeUInt32BE(message.length, 1);
  frame.set(message, 5);
  return frame;
}

/**
 * The grpc-timeout value for a deadline `ms` from now: at most 8 digits, so long deadlines
 * move to a coarser unit (rounded up: a deadline is never made shorter on the wire).
 */
export function grpcTimeout(ms: number): string {
  const whole = Math.max(0, Math.ceil(ms));
  if (whole < 1e8) return `${whole}m`;
  const seconds = Math.ceil(whole / 1000);
  if (seconds < 1e8) return `${seconds}S`;
  return `${Math.min(99_999_999, Math.ceil(seconds / 3600))}H`;
}

/**
 * The single message of a unary answer's body, or the status that says why there is none.
 * `body` is every DATA byte the server sent.
 */
export function readUnaryMessage(
  body: Buffer,
  maxBytes: number = MAX_RESPONSE_BYTES,
): { readonly message: Buffer } | { readonly failure: CallStatus } {
  if (body.length < 5) return protocolError(`answer has ${body.length} bytes, no message frame`);
  if (body[0] !== 0)
    return protocolError(`answer is compressed (flag ${body[0]}) though none was accepted`);
  const length = body.readUInt32BE(1);
  if (length > maxBytes)
    return {
      failure: {
        code: status.RESOURCE_EXHAUSTED,
        details: `answer of ${length} bytes exceeds the ${maxBytes}-byte limit`,
      },
    };
  if (body.length !== 5 + length)
    return protocolError(
      body.length < 5 + length
        ? `answer frame announces ${length} bytes but carries ${body.length - 5}`
        : 'a unary answer carries more than one message',
    );
  return { message: body.subarray(5) };
}

/**
 * The status in a header block (the trailers, or the headers of a trailers-only answer):
 * undefined when it has no grpc-status. grpc-message is percent-encoded (PROTOCOL-HTTP2.md).
 */
export function statusOf(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): CallStatus | undefined {
  const raw = headers['grpc-status'];
  if (raw === undefined) return undefined;
  const code = Number(raw);
  if (!Number.isInteger(code) || code < 0 || code > 16)
    return { code: status.UNKNOWN, details: `invalid grpc-status "${String(raw)}"` };
  const message = headers['grpc-message'];
  return { code, details: typeof message === 'string' ? percentDecode(message) : '' };
}

/**
 * The code for an answer whose HTTP status is not 200 and which carries no grpc-status
 * (a proxy or a server that is not gRPC answered): doc/http-grpc-status-mapping.md.
 */
export function statusFromHttp(httpStatus: number): CallStatus {
  const details = `the server answered HTTP ${httpStatus} without a gRPC status`;
  switch (httpStatus) {
    case 400:
      return { code: status.INTERNAL, details };
    case 401:
      return { code: status.UNAUTHENTICATED, details };
    case 403:
      return { code: status.PERMISSION_DENIED, details };
    case 404:
      return { code: status.UNIMPLEMENTED, details };
    case 429:
    case 502:
    case 503:
    case 504:
      return { code: status.UNAVAILABLE, details };
    default:
      return { code: status.UNKNOWN, details };
  }
}

function percentDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // not valid percent-encoding: keep what was sent rather than lose it
  }
}

function protocolError(details: string): { readonly failure: CallStatus } {
  return { failure: { code: status.INTERNAL, details } };
}

/**
 * Splits a streamed answer's DATA into its messages: feed each chunk in order; every complete
 * message comes back, and a compressed or oversized frame is a failure that ends the stream.
 */
export function createMessageReader(
  maxBytes: number = MAX_RESPONSE_BYTES,
): (chunk: Buffer) => { readonly messages: Buffer[] } | { readonly failure: CallStatus } {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    const messages: Buffer[] = [];
    while (pending.length >= 5) {
      if (pending[0] !== 0)
        return protocolError(`message is compressed (flag ${pending[0]}) though none was accepted`);
      const length = pending.readUInt32BE(1);
      if (length > maxBytes)
        return {
          failure: {
            code: status.RESOURCE_EXHAUSTED,
            details: `message of ${length} bytes exceeds the ${maxBytes}-byte limit`,
          },
        };
      if (pending.length < 5 + length) break;
      messages.push(pending.subarray(5, 5 + length));
      pending = pending.subarray(5 + length);
    }
    return { messages };
  };
}
