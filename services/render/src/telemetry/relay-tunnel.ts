/**
 * The same-origin tunnel without a gateway: POSTs to the tunnel path (`/monitoring`) are
 * streamed to the relay as they are, so the browser setup is identical with and without
 * nginx in front. The relay validates everything; this only forwards bytes and the client's
 * address.
 */
import replyFrom from '@fastify/reply-from';
import type { FastifyInstance } from 'fastify';

/** Where the tunnel forwards. */
export interface RelayTunnelOptions {
  /** The relay's base URL. */
  readonly relayUrl: string;
  /** The tunnel path, the same on this service and on the relay. */
  readonly path: string;
}

/** Registers POST `path` (encapsulated: its body handling does not leak to other routes). */
export async function relayTunnel(app: FastifyInstance, options: RelayTunnelOptions) {
  await app.register(replyFrom, { base: options.relayUrl });
  // Envelopes are bytes of any content type (browsers send text/plain): pass the stream on.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
  app.post(options.path, (request, reply) =>
    reply.from(options.path + querySuffix(request.url), {
      // The relay's client-IP filters and PII rules need the browser's address, not ours.
      rewriteRequestHeaders: (_original, headers) => ({
        ...headers,
        'x-forwarded-for': request.ip,
      }),
      onError: (failed) =>
        failed
          .code(502)
          .header('x-sentry-error', 'The telemetry relay is not reachable.')
          .send({
            error: { code: 'RELAY_UNAVAILABLE', message: 'The telemetry relay is not reachable.' },
          }),
    }),
  );
}

function querySuffix(url: string): string {
  const index = url.indexOf('?');
  return index === -1 ? '' : url.slice(index);
}
