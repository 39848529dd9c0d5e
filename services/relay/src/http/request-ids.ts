/**
 * Request ids: the gateway issues one per request (nginx's `$request_id`, sent as X-Request-Id).
 * Behind it (RELAY_TRUST_PROXY) the relay adopts that id as Fastify's request id, so what it logs
 * for a request (through `request.log`, which binds `reqId`) shares one id with the gateway's
 * access-log line. Without a trusted proxy, a client's X-Request-Id is ignored.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

// nginx's $request_id: 32 hex digits.
const GATEWAY_ID = /^[0-9a-f]{32}$/;

/**
 * Fastify's `genReqId`: the gateway's id when the relay trusts its proxy, else one of this
 * process's own (a random prefix and a counter, 32 hex digits like the gateway's).
 */
export function requestIdFrom(trustProxy: boolean) {
  const prefix = randomBytes(8).toString('hex');
  let issued = 0;
  return (request: IncomingMessage): string => {
    const sent = request.headers['x-request-id'];
    if (trustProxy && typeof sent === 'string' && GATEWAY_ID.test(sent)) return sent;
    issued += 1;
    return prefix + issued.toString(16).padStart(16, '0');
  };
}
