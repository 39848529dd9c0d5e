/**
 * Security headers on every response of a Fastify app (documents, payloads, JSON, assets, error
 * answers), put on the reply before any route runs, so streamed answers carry them too. Each
 * response gets a fresh script nonce in its Content-Security-Policy; the web routes read it back
 * to put it on the scripts of the document they render.
 *
 * The headers are helmet's, computed once (header-block.ts), not @fastify/helmet's: that builds a
 * new helmet middleware on every request, and its nonce option also puts a nonce in style-src,
 * which blocks style attributes.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { securityHeaderBlock } from './header-block.js';
import { freshNonce } from './nonce-source.js';
import type { SecurityPolicy } from './security-policy.js';

// The nonce is kept on the reply as a Fastify decoration, as the page route is on the request:
// declared once, so every reply has the slot and the same shape.
const SCRIPT_NONCE = Symbol('strata.scriptNonce');

interface ScriptNonceSlot {
  [SCRIPT_NONCE]?: string;
}

/** Adds the headers to every route of `app` (call before registering routes). */
export function registerSecurityHeaders(app: FastifyInstance, policy: SecurityPolicy = {}): void {
  const block = securityHeaderBlock(policy);
  app.decorateReply(SCRIPT_NONCE, undefined);
  app.addHook('onRequest', (_request, reply, done) => {
    const nonce = freshNonce();
    (reply as ScriptNonceSlot)[SCRIPT_NONCE] = nonce;
    reply.headers(block.fixed).header('content-security-policy', block.policyWith(nonce));
    done();
  });
}

/** The script nonce of this reply's policy; undefined when no policy was set. */
export function scriptNonceOf(reply: FastifyReply): string | undefined {
  return (reply as ScriptNonceSlot)[SCRIPT_NONCE];
}
