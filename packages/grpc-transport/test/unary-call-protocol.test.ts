/**
 * Unary calls on the transport (src/transport/unary-call.ts) against HTTP/2 peers that break the
 * gRPC protocol in the ways a proxy or a bug would, and the request headers and receive windows
 * such a peer sees.
 */
import { status } from '@grpc/grpc-js';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameMessage } from '../src/transport/grpc-framing.js';
import { createGrpcTransport } from '../src/transport/grpc-transport.js';
import { failure, METHOD, request } from './calls.js';

describe('against peers that break the protocol', () => {
  type Behaviour = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void;
  let behaviour: Behaviour = () => undefined;
  let address = '';
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    stream.resume(); // the request body is not needed here
    stream.on('error', () => undefined); // resets this side sends come back as stream errors
    // A server's streams are ServerHttp2Streams; @types/node 26 types the event's as their base.
    behaviour(stream as http2.ServerHttp2Stream, headers);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function codeFor(next: Behaviour, options: { maxResponseBytes?: number } = {}) {
    behaviour = next;
    const caller = createGrpcTransport(address, options);
    try {
      const error = await failure(caller.unary(METHOD, request(1), { deadlineMs: 2000 }));
      return status[error.code];
    } finally {
      caller.close();
    }
  }
  const grpcHeaders = { ':status': 200, 'content-type': 'application/grpc' };

  it('sends gRPC request headers with the metadata', async () => {
    let seen: http2.IncomingHttpHeaders = {};
    behaviour = (stream, headers) => {
      seen = headers;
      stream.respond(grpcHeaders, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(frameMessage(Buffer.alloc(0)));
    };
    const caller = createGrpcTransport(address);
    try {
      const bytes = await caller.unary(METHOD, request(1), {
        deadlineMs: 1500,
        metadata: { 'strata-trace-id': 'trace-1' },
      });
      expect(bytes.length).toBe(0);
    } finally {
      caller.close();
    }
    expect(seen).toMatchObject({
      ':method': 'POST',
      ':path': METHOD,
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-timeout': '1500m',
      'strata-trace-id': 'trace-1',
    });
  });

  it('opens wide receive windows, so many list pages can be under way at once', async () => {
    let streamWindow = 0;
    let connectionWindow = 0;
    behaviour = (stream) => {
      streamWindow = stream.session?.remoteSettings.initialWindowSize ?? 0;
      connectionWindow = stream.session?.state.remoteWindowSize ?? 0;
      stream.respond(grpcHeaders, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(frameMessage(Buffer.alloc(0)));
    };
    const caller = createGrpcTransport(address);
    try {
      await caller.unary(METHOD, request(1), { deadlineMs: 1500 });
    } finally {
      caller.close();
    }
    // HTTP/2's defaults are 65,535 bytes for each: three ~20 KB ListItems(100) pages.
    expect(streamWindow).toBeGreaterThanOrEqual(1024 * 1024);
    expect(connectionWindow).toBeGreaterThanOrEqual(8 * 1024 * 1024);
  });

  it('maps answers without a gRPC status', async () => {
    expect(await codeFor((stream) => stream.respond({ ':status': 503 }, { endStream: true }))).toBe(
      'UNAVAILABLE',
    );
    expect(
      await codeFor((stream) => {
        stream.respond({ ':status': 200, 'content-type': 'text/html' });
        stream.end('<html>');
      }),
    ).toBe('UNKNOWN');
    // A gRPC answer that ends without trailers.
    expect(
      await codeFor((stream) => {
        stream.respond(grpcHeaders);
        stream.end(frameMessage(Buffer.alloc(0)));
      }),
    ).toBe('UNAVAILABLE');
  });

  it('reads a trailers-only answer', async () => {
    expect(
      await codeFor((stream) =>
        stream.respond({ ...grpcHeaders, 'grpc-status': '14' }, { endStream: true }),
      ),
    ).toBe('UNAVAILABLE');
  });

  it('maps stream resets as grpc-js does', async () => {
    const { NGHTTP2_REFUSED_STREAM, NGHTTP2_INTERNAL_ERROR } = http2.constants;
    expect(await codeFor((stream) => stream.close(NGHTTP2_REFUSED_STREAM))).toBe('UNAVAILABLE');
    expect(await codeFor((stream) => stream.close(NGHTTP2_INTERNAL_ERROR))).toBe('INTERNAL');
  });

  it('refuses compressed, malformed and oversized answers', async () => {
    const answer =
      (body: Buffer): Behaviour =>
      (stream) => {
        stream.respond(grpcHeaders, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(body);
      };
    const compressed = frameMessage(Buffer.from('x'));
    compressed[0] = 1;
    expect(await codeFor(answer(compressed))).toBe('INTERNAL');
    expect(await codeFor(answer(Buffer.from([0, 0, 0])))).toBe('INTERNAL');
    const big = frameMessage(Buffer.alloc(64 * 1024, 1));
    expect(await codeFor(answer(big), { maxResponseBytes: 1024 })).toBe('RESOURCE_EXHAUSTED');
  });
});
