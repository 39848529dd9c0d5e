/**
 * Streaming over a real socket: the shell (with the loading view) reaches the client before the
 * slow segment resolves; the rest follows when it does; a client that leaves aborts the work.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { payloadHash } from '../src/index.js';
import { buildTestServer, type TestServer } from './harness/build-test-server.js';

let server: TestServer | undefined;
afterEach(async () => server?.app.close());

function open(url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => httpRequest(url, resolve).on('error', reject).end());
}

/**
 * Resolves when the server's side of the next connection has closed: the server has seen the
 * client leave (a loaded machine can take long to notice, so no fixed wait stands for this).
 */
function nextConnectionClosed(): Promise<void> {
  return new Promise((resolve) =>
    server!.app.server.once('connection', (socket: Socket) =>
      socket.once('close', () => resolve()),
    ),
  );
}

function nextChunk(response: IncomingMessage): Promise<string> {
  return new Promise((resolve) =>
    response.once('data', (chunk: Buffer) => resolve(chunk.toString())),
  );
}

describe('streamed HTML', () => {
  it('sends the shell with the loading view first, then the slow segment when it resolves', async () => {
    server = await buildTestServer();
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const response = await open(`http://127.0.0.1:${port}/slow`);
    expect(response.headers['x-accel-buffering']).toBe('no');
    let received = await nextChunk(response);
    // Timeline:  shell ──► [loader still pending] ──► resolve ──► segment HTML
    expect(received).toContain('<p class="loading">Loading slow…</p>');
    expect(received).not.toContain('class="slow"');
    server.services.slow.resolve('finally here');
    const rest = new Promise<string>((resolve) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(text));
    });
    received += await rest;
    expect(received).toContain('<p class="slow">finally here</p>');
    expect(received.indexOf('Loading slow')).toBeLessThan(received.indexOf('finally here'));
  });

  it('aborts loaders when the client disconnects mid-stream', async () => {
    server = await buildTestServer();
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const closed = nextConnectionClosed();
    const response = await open(`http://127.0.0.1:${port}/slow`);
    await nextChunk(response);
    response.destroy();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.services.slow.resolve('too late');
    await expect.poll(() => server!.services.slowAborted, { timeout: 10_000 }).toEqual([true]);
    await new Promise((resolve) => setTimeout(resolve, 50)); // time to log a failure, if it did
    expect(server.logged.filter((line) => line['msg'] === 'render failed')).toEqual([]);
  });
});

describe('cancelled work', () => {
  it('is not logged as a failure when the client went away', async () => {
    server = await buildTestServer();
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const closed = nextConnectionClosed();
    const response = await open(`http://127.0.0.1:${port}/slow`);
    await nextChunk(response);
    response.destroy();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.services.slow.reject(
      Object.assign(new Error('1 CANCELLED: Cancelled on client'), { code: 1 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.logged.filter((line) => line['msg'] === 'loader failed')).toEqual([]);
  });
});

describe('a client that leaves before anything was sent', () => {
  it.each([
    ['document', {}],
    ['payload', { 'strata-payload': '1', 'strata-tree': '1;shop/section/items(s.q=)' }],
  ] as const)('is not logged at error level (%s)', async (_kind, headers) => {
    server = await buildTestServer();
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const hash = payloadHash({ tree: '1;shop/section/items(s.q=)', prefetch: undefined });
    const path = 'strata-payload' in headers ? `/blocking?_p=${hash}` : '/blocking';
    const arrived = new Promise((resolve) => server!.app.server.once('request', resolve));
    const closed = nextConnectionClosed();
    const request = httpRequest(`http://127.0.0.1:${port}${path}`, { headers });
    request.on('error', () => undefined);
    request.end();
    await arrived; // the server has the request (then has a moment to start its loader)
    await new Promise((resolve) => setTimeout(resolve, 100));
    request.destroy();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    // What a gRPC call answers once the gateway cancelled it on the request's abort signal.
    server.services.slow.reject(
      Object.assign(new Error('1 CANCELLED: Cancelled on client'), { code: 1 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const level = (line: Record<string, unknown>) => Number(line['level']);
    expect(server.logged.filter((line) => level(line) >= 50)).toEqual([]);
  });
});
