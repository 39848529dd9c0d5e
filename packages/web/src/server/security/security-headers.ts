/**
 * Security headers on every response of a Fastify app (documents, payloads, JSON, assets, error
 * answers), set before any route runs so streamed answers carry them too. Each response gets a
 * fresh script nonce in its Content-Security-Policy; the web routes read it back to put it on
 * the scripts of the document they render.
 *
 * helmet itself, built once: @fastify/helmet builds a new helmet middleware on every request,
 * and its nonce option also puts a nonce in style-src, which blocks style attributes.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';
import type { ServerResponse } from 'node:http';
import { freshNonce } from './nonce-source.js';
import { helmetOptions, type SecurityPolicy } from './security-policy.js';

const nonces = new WeakMap<ServerResponse, string>();

/** Adds the headers to every route of `app` (call before registering routes). */
export function registerSecurityHeaders(app: FastifyInstance, policy: SecurityPolicy = {}): void {
  const apply = helmet(
    helmetOptions(policy, (response) => {
      const nonce = freshNonce();
      nonces.set(response, nonce);
      return nonce;
    }),
  );
  app.addHook('onRequest', (request, reply, done) =>
    apply(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );
}

/** The script nonce of this reply's policy; undefined when no policy was set. */
export function scriptNonceOf(reply: FastifyReply): string | undefined {
  return nonces.get(reply.raw);
}
