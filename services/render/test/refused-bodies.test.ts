/**
 * A refusal reaches a client that sends the whole body before it reads the answer, as nginx
 * does: the render service reads (and discards) a refused body before answering, so the client
 * never writes into a closed connection, which a proxy would turn into a 502.
 */
import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRender, type RenderUnderTest } from './harness/start-render.js';

let stack: RenderUnderTest;
let port: number;
beforeAll(async () => {
  stack = await startRender();
  await stack.app.listen({ port: 0, host: '127.0.0.1' });
  port = (stack.app.server.address() as AddressInfo).port;
});
afterAll(() => stack.stop());

const BIG = 1.5 * 1024 * 1024;
const ACTION_ID = 'f'.repeat(32);

/** What the client saw: a failed write (the connection was closed under it) and the answer. */
interface Sent {
  readonly writeError: string | undefined;
  readonly status: number;
  readonly headers: string;
  readonly body: string;
}

/**
 * Writes the head and then every byte of `body` in 64 KiB chunks, pausing after the first as a
 * proxy's upload may (long enough for the service to have answered), then reads the answer.
 */
async function sendWholeBodyFirst(head: string, body: Buffer, chunked = false): Promise<Sent> {
  // Half-open, as a proxy is: the service's FIN does not stop the upload, only a reset does.
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await once(socket, 'connect');
  const received: Buffer[] = [];
  let writeError: string | undefined;
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.on(
    'error',
    (error: NodeJS.ErrnoException) => (writeError ??= error.code ?? error.message),
  );
  const closed = once(socket, 'close');
  const write = async (data: Buffer | string) => {
    if (writeError) return;
    if (socket.destroyed) {
      writeError = 'closed before the body was sent';
      return;
    }
    if (!socket.write(data)) await Promise.race([once(socket, 'drain'), closed]);
  };
  await write(head);
  for (let offset = 0; offset < body.length; offset += 64 * 1024) {
    const part = body.subarray(offset, offset + 64 * 1024);
    await write(
      chunked
        ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')])
        : part,
    );
    if (offset === 0) await new Promise((resolve) => setTimeout(resolve, 300));
  }
  if (chunked) await write('0\r\n\r\n');
  // The answer: up to the end of its JSON body (the server may keep the connection open).
  const until = Date.now() + 10_000;
  while (
    !/\r\n\r\n[\s\S]*\}$/.test(Buffer.concat(received).toString()) &&
    !socket.destroyed &&
    Date.now() < until
  )
    await new Promise((resolve) => setTimeout(resolve, 20));
  socket.destroy();
  const text = Buffer.concat(received).toString();
  const [headers = '', answer = ''] = text.split('\r\n\r\n');
  return {
    writeError,
    status: Number(/^HTTP\/1\.1 (\d+)/.exec(headers)?.[1] ?? 0),
    headers,
    body: answer,
  };
}

function postHead(path: string, type: string, length: number | 'chunked', extra = ''): string {
  const size = length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`;
  return `POST ${path} HTTP/1.1\r\nHost: shop.test\r\nOrigin: http://shop.test\r\nContent-Type: ${type}\r\n${size}\r\n${extra}\r\n`;
}

describe('a refused body sent whole before the answer is read', () => {
  it.each([
    [
      'a 1.5 MiB action body',
      postHead('/items/new', 'application/json', BIG, `Strata-Action: ${ACTION_ID}\r\n`),
      false,
      413,
      'BODY_TOO_LARGE',
    ],
    [
      'a 1.5 MiB /api body',
      postHead('/api/items', 'application/json', BIG),
      false,
      413,
      'BODY_TOO_LARGE',
    ],
    [
      'a 1.5 MiB chunked action body',
      postHead('/items/new', 'application/json', 'chunked', `Strata-Action: ${ACTION_ID}\r\n`),
      true,
      413,
      'BODY_TOO_LARGE',
    ],
    [
      'a 1.5 MiB text/plain action body',
      postHead('/items/new', 'text/plain', BIG, `Strata-Action: ${ACTION_ID}\r\n`),
      false,
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    [
      'a 1.5 MiB text/plain /api body',
      postHead('/api/items', 'text/plain', BIG),
      false,
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
  ])('gets its refusal: %s', async (_name, requestHead, chunked, status, code) => {
    const sent = await sendWholeBodyFirst(requestHead, Buffer.alloc(BIG, 'x'), chunked);
    expect(sent.writeError).toBeUndefined();
    expect(sent.status).toBe(status);
    expect(JSON.parse(sent.body)).toMatchObject({ error: { code } });
  });

  it('is not waited for when it declares more than the service will ever read', async () => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    const started = performance.now();
    socket.write(postHead('/api/items', 'application/json', 64 * 1024 * 1024));
    socket.write(Buffer.alloc(64 * 1024, 'x'));
    const [first] = (await once(socket, 'data')) as [Buffer];
    socket.destroy();
    expect(first.toString()).toMatch(/^HTTP\/1\.1 413 /);
    expect(first.toString().toLowerCase()).toContain('connection: close');
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
