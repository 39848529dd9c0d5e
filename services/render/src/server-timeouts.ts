/**
 * How long the render service waits for a client: the request headers, the whole request, and
 * any silence on the connection. Node's defaults would let a body that trickles one byte a
 * minute hold a request (and a shutdown) for as long as it likes.
 */
import type { ServerOptions } from 'node:http';
import type { RenderConfig } from './config.js';

/**
 * How often Node checks the headers and request deadlines (its default, 30 s, would let a 10 s
 * deadline pass by up to 30 s more). One pass walks the open connections: cheap once a second.
 */
export const DEADLINE_CHECK_INTERVAL_MS = 1000;

/** Fastify's server options for the configured timeouts. */
export function serverTimeouts(
  config: Pick<
    RenderConfig,
    'RENDER_HEADERS_TIMEOUT' | 'RENDER_REQUEST_TIMEOUT' | 'RENDER_IDLE_TIMEOUT'
  >,
): { connectionTimeout: number; requestTimeout: number; http: ServerOptions } {
  return {
    // Socket inactivity, both ways: a stalled body, or a client that stops reading the answer.
    connectionTimeout: config.RENDER_IDLE_TIMEOUT,
    // Receiving the request (headers and body), not answering it: streamed pages may run longer.
    requestTimeout: config.RENDER_REQUEST_TIMEOUT,
    http: {
      headersTimeout: config.RENDER_HEADERS_TIMEOUT,
      requestTimeout: config.RENDER_REQUEST_TIMEOUT,
      connectionsCheckingInterval: DEADLINE_CHECK_INTERVAL_MS,
    },
  };
}
