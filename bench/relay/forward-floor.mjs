// The floor of any relay that forwards each envelope as its own request: a bare Fastify
// endpoint that reads the body, POSTs it unchanged to RELAY_UPSTREAM with undici as the relay
// does (dispatch keeping only the status; same pool settings: 64 connections, no pipelining) and
// answers once the upstream has.
// No envelope parsing, no filters, no spool. Usage: RELAY_UPSTREAM=<url> node forward-floor.mjs
import Fastify from 'fastify';
import { createRequire } from 'node:module';
import { dispatchSend } from './lib/dispatch-send.mjs';

// undici is the relay's dependency, resolved from services/relay as the relay resolves it.
const { Agent } = createRequire(new URL('../../services/relay/package.json', import.meta.url))(
  'undici',
);
const upstream = new URL(process.env.RELAY_UPSTREAM);
const agent = new Agent({ connections: 64, pipelining: 1, keepAliveTimeout: 15_000 });
const app = Fastify({ logger: false, bodyLimit: 20 * 1024 * 1024 });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
app.post('/monitoring', async (request) => {
  await dispatchSend(agent, {
    origin: upstream.origin,
    path: '/api/1/envelope/',
    method: 'POST',
    headers: { 'content-type': 'application/x-sentry-envelope' },
    body: request.body,
  });
  return {};
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${address}`);
