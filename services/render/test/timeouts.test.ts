/**
 * The render service's client timeouts, over real sockets: request headers that never end and
 * a body that trickles get 408 when their deadline passes, a connection that goes silent is
 * closed, and none of it cuts an answer that streams for longer than the request took.
 */
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRender, type RenderUnderTest } from './harness/start-render.js';

/** What a raw connection received before the server closed it, and when it closed. */
interface Closed {
  readonly received: string;
  readonly afterMs: number;
}

/**
 * Opens a connection, writes `first`, then each of `trickle` every `everyMs`, and resolves
 * when the server closes the connection (or after 15 s).
 */
function rawRequest(
  stack: RenderUnderTest,
  first: string,
  trickle: { chunks?: readonly string[]; everyMs?: number } = {},
): Promise<Closed> {
  const { port } = stack.app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const pending = [...(trickle.chunks ?? [])];
    const timer = setInterval(() => {
      const next = pending.shift();
      if (next !== undefined && !socket.destroyed) socket.write(next);
    }, trickle.everyMs ?? 1000);
    const giveUp = setTimeout(() => socket.destroy(new Error('still open after 15 s')), 15_000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', (error) => {
      if (error.message.includes('still open')) reject(error);
    });
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ received, afterMs: performance.now() - started });
    });
    socket.write(first);
  });
}

const POST_HEAD =
  'POST /api/items HTTP/1.1\r\nHost: shop.test\r\nContent-Type: application/json\r\n' +
  'Content-Length: 100\r\n\r\n';

describe('headers and whole-request deadlines', () => {
  let stack: RenderUnderTest;
  beforeAll(async () => {
    stack = await startRender({ RENDER_HEADERS_TIMEOUT: '400ms', RENDER_REQUEST_TIMEOUT: '2s' });
    await stack.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => stack.stop());

  it('answers 408 and closes when the headers have not ended in time', async () => {
    const closed = await rawRequest(stack, 'GET /items HTTP/1.1\r\nHost: shop.test\r\n', {
      chunks: ['X-Slow: 1\r\n', 'X-Slower: 2\r\n'],
      everyMs: 300,
    });
    expect(closed.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed.afterMs).toBeGreaterThanOrEqual(350);
    expect(closed.afterMs).toBeLessThan(2000);
  });

  it('answers 408 and closes when a body that never stops moving is not complete in time', async () => {
    // A byte every 200 ms: never silent for long, never finished.
    const closed = await rawRequest(stack, POST_HEAD, {
      chunks: Array.from({ length: 40 }, () => ' '),
      everyMs: 200,
    });
    expect(closed.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed.afterMs).toBeGreaterThanOrEqual(1900);
  });

  it('lets an answer stream for longer than the request deadline', async () => {
    const started = performance.now();
    const response = await fetch(
      `http://127.0.0.1:${(stack.app.server.address() as AddressInfo).port}/slow`,
    );
    const body = await response.text();
    expect(response.status).toBe(200);
    expect(body).toContain('Free shipping over $50');
    expect(performance.now() - started).toBeGreaterThan(2000);
  });
});

describe('idle connections', () => {
  let stack: RenderUnderTest;
  beforeAll(async () => {
    stack = await startRender({ RENDER_IDLE_TIMEOUT: '1s', RENDER_TIMEOUT: '500ms' });
    await stack.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => stack.stop());

  it('closes a connection whose body stopped arriving', async () => {
    const closed = await rawRequest(stack, `${POST_HEAD}{"title":`);
    expect(closed.received).toBe('');
    expect(closed.afterMs).toBeGreaterThanOrEqual(950);
    // RENDER_REQUEST_TIMEOUT is 30 s here: only the silence can have closed it.
    expect(closed.afterMs).toBeLessThan(10_000);
  });
});

describe('configuration', () => {
  it('refuses an idle timeout a streaming page could outlast, and headers slower than requests', async () => {
    const { loadRenderConfig } = await import('../src/index.js');
    expect(() => loadRenderConfig({ RENDER_IDLE_TIMEOUT: '10s', RENDER_TIMEOUT: '10s' })).toThrow(
      /RENDER_IDLE_TIMEOUT: must be longer than RENDER_TIMEOUT/,
    );
    expect(() =>
      loadRenderConfig({ RENDER_HEADERS_TIMEOUT: '31s', RENDER_REQUEST_TIMEOUT: '30s' }),
    ).toThrow(/RENDER_HEADERS_TIMEOUT: must not be longer than RENDER_REQUEST_TIMEOUT/);
    expect(() => loadRenderConfig({ RENDER_REQUEST_TIMEOUT: '0s' })).toThrow(
      /RENDER_REQUEST_TIMEOUT: must be longer than 0/,
    );
  });
});
