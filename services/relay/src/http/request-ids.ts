/**
 * Request ids: the gateway issues one per request (nginx's `$request_id`, sent as X-Request-Id).
 * Behind it (RELAY_TRUST_PROXY) the relay adopts that id, and every line it logs while handling
 * the request carries it as `reqId`, so the gateway's access-log line and the relay's lines share
 * one id. Without a trusted proxy, a client's X-Request-Id is ignored.
 */
import { fastifyRequestContext, requestContext } from '@fastify/request-context';
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

declare module '@fastify/request-context' {
  interface RequestContextData {
    reqId: string;
  }
}

// nginx's $request_id: 32 hex digits.
const GATEWAY_ID = /^[0-9a-f]{32}$/;

/** Fastify's `genReqId`: the gateway's id when the relay trusts its proxy, else a new one. */
export function requestIdFrom(trustProxy: boolean) {
  return (request: IncomingMessage): string => {
    const sent = request.headers['x-request-id'];
    if (trustProxy && typeof sent === 'string' && GATEWAY_ID.test(sent)) return sent;
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
