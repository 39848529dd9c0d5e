/**
 * Request ids: the gateway issues one per request (nginx's `$request_id`, sent as X-Request-Id);
 * the render service adopts it from a trusted proxy only, and every line it logs while handling
 * the request carries it as `reqId`, so a gateway access-log line and the service's lines for the
 * same request share one id. Anyone else's X-Request-Id is ignored.
 */
import { fastifyRequestContext, requestContext } from '@fastify/request-context';
import type { TrustedProxies } from '@strata/web/server';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';

declare module '@fastify/request-context' {
  interface RequestContextData {
    reqId: string;
  }
}

// nginx's $request_id: 32 hex digits.
const GATEWAY_ID = /^[0-9a-f]{32}$/;

/** Fastify's `genReqId`: the gateway's id when a trusted proxy sent one, else a new one. */
export function requestIdFrom(trusted: TrustedProxies) {
  return (request: IncomingMessage): string => {
    const sent = request.headers['x-request-id'];
    if (
      typeof sent === 'string' &&
      GATEWAY_ID.test(sent) &&
      trusted.contains(request.socket.remoteAddress ?? '')
    )
      return sent;
    return randomUUID().replaceAll('-', '');
  };
}

/** Makes the request id available to `requestIdMixin` for the whole request. */
export async function logRequestIds(app: FastifyInstance): Promise<void> {
  await app.register(fastifyRequestContext, {
    defaultStoreValues: (request) => ({ reqId: request.id }),
  });
}

/** pino `mixin`: adds `reqId` to every line logged while a request is handled. */
export function requestIdMixin(): { reqId?: string } {
  const reqId = requestContext.get('reqId');
  return reqId === undefined ? {} : { reqId };
}

/**
 * Fastify's `childLoggerFactory`: a request logs through the service's own logger. Its `reqId`
 * comes from `requestIdMixin`; Fastify's per-request child would bind it a second time, writing
 * the key twice on every line. Only a route with its own log level or serializers gets a child.
 */
export const requestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (
  logger,
  _bindings,
  options,
) =>
  options.level === undefined && options.serializers === undefined
    ? logger
    : logger.child({}, options);
