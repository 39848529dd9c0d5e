/**
 * Opening one gRPC call's stream on a replica's connection, the same for unary calls and server
 * streams: the request headers gRPC asks for, and what to do when the connection cannot open
 * another stream.
 */
import type http2 from 'node:http2';
import { status } from '@grpc/grpc-js';
import { GrpcCallError, unavailable } from './call-error.js';
import type { Connection } from './http2-connection.js';

/**
 * The call's stream, or the error it failed to open with: INVALID_ARGUMENT for metadata that
 * cannot be sent (a name that repeats one of gRPC's own headers, or is not a header name), else
 * UNAVAILABLE. `timeout` is the `grpc-timeout` value (absent: no deadline).
 */
export function openCall(
  connection: Connection,
  path: string,
  timeout: string | undefined,
  metadata: Readonly<Record<string, string>> = {},
): http2.ClientHttp2Stream | GrpcCallError {
  // A flat name/value array (node's raw headers) spares node an object of headers per call.
  // prettier-ignore
  const headers = [
    ':method', 'POST',
    ':path', path,
    'content-type', 'application/grpc',
    'te', 'trailers',
  ];
  if (timeout !== undefined) headers.push('grpc-timeout', timeout);
  for (const name in metadata) {
    const value = metadata[name];
    if (value !== undefined) headers.push(name, value);
  }
  try {
    return connection.session.request(headers);
  } catch (error) {
    // node refuses bad headers with a TypeError: the caller's mistake, not the connection's.
    if (error instanceof TypeError)
      return new GrpcCallError({
        code: status.INVALID_ARGUMENT,
        details: `the call's metadata cannot be sent: ${error.message}`,
      });
    // A session that cannot open streams (out of stream ids, closing): retire it gently, so
    // calls in flight on it still finish; the next call opens a new one.
    connection.session.close();
    return unavailable(error);
  }
}
