/**
 * openCall against a real HTTP/2 server: the raw header array it hands node arrives as gRPC's
 * request headers in order, with the deadline only when there is one; metadata node cannot send
 * is the caller's error and leaves the connection open.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcCallError } from './call-error.js';
import type { Connection } from './http2-connection.js';
import { openCall } from './open-call.js';

let server: http2.Http2Server;
let origin: string;
const seen: string[][] = [];
beforeAll(async () => {
  server = http2.createServer();
  // A server's streams are ServerHttp2Streams; @types/node 26 types the event's as their base.
  server.on('stream', (stream, _headers, _flags, rawHeaders: string[]) => {
    seen.push(rawHeaders);
    (stream as http2.ServerHttp2Stream).respond({ ':status': 200 }, { endStream: true });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The raw headers the server received for one call opened with `timeout` and `metadata`. */
async function headersOf(timeout: string | undefined, metadata?: Record<string, string>) {
  const session = http2.connect(origin);
  const connection: Connection = { session, lastAnswerAt: 0, active: 0 };
  try {
    const stream = openCall(connection, '/test.v1.EchoService/Echo', timeout, metadata);
    if (stream instanceof GrpcCallError) throw stream;
    stream.resume();
    stream.end();
    await new Promise((resolve) => stream.on('close', resolve));
    return withoutNodesOwn(seen.at(-1)!);
  } finally {
    session.close();
  }
}

/** `raw` without the :authority and :scheme pairs node adds to every request. */
function withoutNodesOwn(raw: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i] !== ':authority' && raw[i] !== ':scheme') kept.push(raw[i]!, raw[i + 1]!);
  return kept;
}

describe('openCall', () => {
  it('sends gRPC’s request headers, the deadline, then the metadata', async () => {
    // prettier-ignore
    expect(await headersOf('1500m', { 'x-request-id': 'r-1', traceparent: 't-1' })).toEqual([
      ':method', 'POST',
      ':path', '/test.v1.EchoService/Echo',
      'content-type', 'application/grpc',
      'te', 'trailers',
      'grpc-timeout', '1500m',
      'x-request-id', 'r-1',
      'traceparent', 't-1',
    ]);
  });

  it('sends no grpc-timeout without a deadline (a server stream)', async () => {
    const headers = await headersOf(undefined, { 'x-request-id': 'r-2' });
    expect(headers).not.toContain('grpc-timeout');
    expect(headers.slice(-2)).toEqual(['x-request-id', 'r-2']);
    expect(await headersOf(undefined)).toHaveLength(8);
  });

  it('refuses metadata that repeats gRPC’s own headers, keeping the connection', () => {
    const session = http2.connect(origin);
    const connection: Connection = { session, lastAnswerAt: 0, active: 0 };
    try {
      const mistakes: Record<string, string>[] = [
        { 'content-type': 'text/plain' },
        { 'bad name': 'x' },
      ];
      for (const metadata of mistakes) {
        const refused = openCall(connection, '/test.v1.EchoService/Echo', '1S', metadata);
        expect(refused).toBeInstanceOf(GrpcCallError);
        expect((refused as GrpcCallError).code).toBe(3); // INVALID_ARGUMENT: never retried
        expect(session.closed).toBe(false);
      }
    } finally {
      session.close();
    }
  });
});
