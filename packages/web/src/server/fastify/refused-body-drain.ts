/**
 * Reads and discards the rest of a request body the server answered before reading it all (a
 * 413 on its Content-Length, a 415, a 404 for a POST). A proxy such as nginx sends the whole
 * body before it reads the answer: a connection closed under it while it still sends becomes a
 * 502 for the browser instead of the refusal. Bounded by bytes and by time; past either bound
 * the answer goes out at once and the connection closes.
 */
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

/** How much of a refused body is read before giving up on it. */
export interface DrainLimits {
  readonly maxBytes: number;
  readonly timeoutMs: number;
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (
    (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined
  );
}

/**
 * Whether nothing of the body is left to read. `complete` is Node's parser's word for it; a
 * request that is not a socket's (an injected one) only tells by having ended.
 */
function bodyRead(request: IncomingMessage): boolean {
  return request.complete || request.readableEnded || !hasBody(request);
}

/**
 * Discards what is left of `request`'s body. True once it has all been read; false when it is
 * (or turns out) larger than `maxBytes`, takes longer than `timeoutMs`, or the client left.
 */
export function drainBody(request: IncomingMessage, limits: DrainLimits): Promise<boolean> {
  if (bodyRead(request)) return Promise.resolve(true);
  if (Number(request.headers['content-length']) > limits.maxBytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    const finish = (drained: boolean) => {
      clearTimeout(timer);
      request.off('data', onData).off('end', onEnd).off('close', onClose).off('error', onClose);
      resolve(drained);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limits.maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(request.complete);
    const timer = setTimeout(() => finish(false), limits.timeoutMs);
    request.on('data', onData).once('end', onEnd).once('close', onClose).once('error', onClose);
    request.resume();
  });
}

/**
 * Makes every answer of `app` wait until the request body has been read, within `limits`;
 * past them the answer says `Connection: close`. Register before any route.
 */
export function drainRefusedBodies(app: FastifyInstance, limits: DrainLimits): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    // The usual case: the body was read (or there is none); nothing to wait for.
    if (bodyRead(request.raw)) return done(null, payload);
    void drainBody(request.raw, limits).then((drained) => {
      if (!drained) reply.header('connection', 'close');
      done(null, payload);
    });
  });
}
