/**
 * Mounts the app's own routes (`RunningApp.handlers`) on Fastify: each request becomes a
 * web-standard `Request` (a body of a type the handler does not accept refused with 415 before it
 * is read, any other read up to the body limit, else 413; a signal that aborts when the client
 * goes away), and the handler's `Response` goes back with its status, headers and streamed body.
 * A throw reaches the service's error responder (500 with a digest).
 */
import type { AppHandler, AppHandlerMethod } from '@strata/web/server';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { Readable } from 'node:stream';

/** What mounting needs from the service. */
export interface AppHandlerDeps<Services> {
  /** The request's services (`signal` aborts when the client goes away). */
  servicesFor(request: FastifyRequest, signal: AbortSignal): Services;
  revalidate(tags: readonly string[]): Promise<void>;
  /** Largest body, in bytes (413 beyond). */
  readonly bodyLimit: number;
}

const EVERY_METHOD: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Registers `handlers` in a scope of their own (its body parsing is theirs alone). */
export async function mountAppHandlers<Services>(
  app: FastifyInstance,
  handlers: readonly AppHandler<Services>[],
  deps: AppHandlerDeps<Services>,
): Promise<void> {
  await app.register(async (scope) => {
    // Every body arrives as bytes: the handler reads it as it likes (json(), formData()…).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: deps.bodyLimit },
      (_request, body, done) => done(null, body),
    );
    for (const handler of handlers)
      scope.route({
        method: methodsOf(handler.method),
        url: handler.path,
        ...(handler.accepts && { onRequest: refuseOtherTypes(handler.accepts) }),
        handler: (request, reply) => answer(handler, request, reply, deps),
      });
  });
}

/** Answers 415 to a body of a type `accepts` lacks, before the body is read. */
function refuseOtherTypes(accepts: readonly string[]) {
  const types = new Set(accepts.map((type) => type.toLowerCase()));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { headers } = request;
    const hasBody =
      (headers['content-length'] ?? '0') !== '0' || headers['transfer-encoding'] !== undefined;
    const type = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!hasBody || types.has(type)) return;
    const message = `Send ${accepts.join(' or ')}.`;
    return reply.code(415).send({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', message } });
  };
}

function methodsOf(method: AppHandlerMethod): HTTPMethods | HTTPMethods[] {
  return method === '*' ? EVERY_METHOD : method;
}

async function answer<Services>(
  handler: AppHandler<Services>,
  request: FastifyRequest,
  reply: FastifyReply,
  deps: AppHandlerDeps<Services>,
): Promise<FastifyReply> {
  const controller = new AbortController();
  // 'close' on the response before it finished means the client went away.
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  // It may have gone while the body was read, before there was a listener.
  if (reply.raw.destroyed || request.raw.socket?.destroyed) controller.abort();
  const response = await handler.handle(webRequest(request, controller.signal), {
    params: request.params as Record<string, string>,
    services: deps.servicesFor(request, controller.signal),
    revalidate: deps.revalidate,
  });
  return send(response, reply);
}

/** The Fastify request as a `Request` (its URL on the origin the client used). */
export function webRequest(request: FastifyRequest, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const body = request.body;
  return new Request(new URL(request.url, `${request.protocol}://${request.host}`), {
    method: request.method,
    headers,
    signal,
    ...(Buffer.isBuffer(body) &&
      body.length > 0 && {
        body: new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.length),
      }),
  });
}

const NEXT_TURN = Symbol('next turn');

/**
 * Sends `response`: status, headers (every Set-Cookie), and its body. A body that is whole by
 * the next event-loop turn (a JSON answer) goes out as one buffer with its length; any other is
 * streamed as it comes, its first chunk at once.
 */
export async function send(response: Response, reply: FastifyReply): Promise<FastifyReply> {
  reply.code(response.status);
  for (const [name, value] of response.headers)
    if (name !== 'set-cookie') reply.header(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  if (!response.body) return reply.send();
  const reader = response.body.getReader();
  const first = await reader.read();
  if (first.done) return reply.send();
  const second = reader.read();
  const soon = await Promise.race([second, new Promise((ready) => setImmediate(ready, NEXT_TURN))]);
  if (soon !== NEXT_TURN && (soon as ReadableStreamReadResult<Uint8Array>).done)
    return reply.send(Buffer.from(first.value.buffer, first.value.byteOffset, first.value.length));
  return reply.send(Readable.from(rest(reader, first.value, second)));
}

/** The chunks of a body whose first chunk and second read are under way. */
async function* rest(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  first: Uint8Array,
  second: Promise<ReadableStreamReadResult<Uint8Array>>,
): AsyncGenerator<Uint8Array> {
  let done = false;
  try {
    yield first;
    let next = await second;
    for (; !next.done; next = await reader.read()) yield next.value;
    done = true;
  } finally {
    // The client went away mid-body: tell the handler's stream to stop.
    if (!done) await reader.cancel().catch(() => undefined);
  }
}
