/**
 * An app's own routes are web-standard handlers: the render service hands them a `Request` (URL,
 * headers, body within the limit, params, services) and sends their `Response` back as it is.
 */
import type { AppHandler } from '@strata/web/server';
import Fastify from 'fastify';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mountAppHandlers } from '../src/app-handlers.js';

type Services = { readonly who: string };
const revalidated: string[][] = [];
let close: () => Promise<void> = async () => undefined;
afterEach(() => close());

async function serve(handlers: AppHandler<Services>[]) {
  const app = Fastify();
  await mountAppHandlers(app, handlers, {
    servicesFor: (request) => ({ who: String(request.headers['x-who'] ?? 'nobody') }),
    revalidate: async (tags) => void revalidated.push([...tags]),
    bodyLimit: 1024,
  });
  await app.ready();
  close = () => app.close();
  return app;
}

describe("the app's own routes", () => {
  it('get the request as a Request, with params and services, and answer with their Response', async () => {
    const app = await serve([
      {
        method: 'POST',
        path: '/echo/:id',
        handle: async (request, { params, services, revalidate }) => {
          await revalidate([`item:${params['id']}`]);
          const headers = new Headers({ 'x-seen': `${request.method} ${request.url}` });
          headers.append('set-cookie', 'a=1');
          headers.append('set-cookie', 'b=2');
          return new Response(`${services.who}:${await request.text()}`, { status: 202, headers });
        },
      },
    ]);
    const answer = await app.inject({
      method: 'POST',
      url: '/echo/7?x=1',
      headers: { host: 'shop.test', 'x-who': 'ann', 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(answer.statusCode).toBe(202);
    expect(answer.body).toBe('ann:hello');
    expect(answer.headers['x-seen']).toBe('POST http://shop.test/echo/7?x=1');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(revalidated).toContainEqual(['item:7']);
  });

  it('refuses a body over the limit (413) and one of a type the handler does not accept (415) before it runs', async () => {
    let ran = 0;
    const app = await serve([
      {
        method: '*',
        path: '/in/*',
        accepts: ['application/json'],
        handle: async () => new Response(String(++ran)),
      },
    ]);
    const post = (type: string, payload: string) =>
      app.inject({ method: 'PUT', url: '/in/x', headers: { 'content-type': type }, payload });
    expect((await post('application/json', 'x'.repeat(2048))).statusCode).toBe(413);
    const other = await post('text/plain', 'hi');
    expect(other.statusCode).toBe(415);
    expect(other.json()).toEqual({
      error: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send application/json.' },
    });
    expect(ran).toBe(0);
    expect((await post('application/json; charset=utf-8', '{}')).body).toBe('1');
  });

  it("aborts the request's signal when the client goes away before the answer", async () => {
    let aborted: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (aborted = resolve));
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const app = await serve([
      {
        method: 'GET',
        path: '/slow',
        handle: (request) =>
          new Promise<Response>((resolve) => {
            request.signal.addEventListener('abort', () => {
              aborted();
              resolve(new Response(null, { status: 499 }));
            });
            started();
          }),
      },
    ]);
    const port = Number(new URL(await app.listen({ port: 0, host: '127.0.0.1' })).port);
    const socket = connect(port, '127.0.0.1', () =>
      socket.write('GET /slow HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n'),
    );
    await running;
    socket.destroy();
    await expect(gone).resolves.toBeUndefined();
  });

  it('streams a body as the handler produces it', async () => {
    const app = await serve([
      {
        method: 'GET',
        path: '/stream',
        handle: async () =>
          new Response(
            new ReadableStream({
              start(controller) {
                for (const part of ['one ', 'two ', 'three'])
                  controller.enqueue(new TextEncoder().encode(part));
                controller.close();
              },
            }),
            { headers: { 'content-type': 'text/plain' } },
          ),
      },
    ]);
    const answer = await app.inject({ url: '/stream' });
    expect(answer.body).toBe('one two three');
    expect(answer.headers['transfer-encoding']).toBe('chunked');
  });
});
