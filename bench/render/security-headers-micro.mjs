#!/usr/bin/env node
// What the security headers cost a request, alone: two Fastify apps in this process answering the
// same small route through `inject`, one with the headers computed once (the runtime's
// registerSecurityHeaders) and one running helmet's middleware on every request (as the runtime
// did before), measured in alternating batches; CPU µs per request from process.cpuUsage().
//
//   npm run build && node bench/render/security-headers-micro.mjs
//
// Env: REQUESTS (4000 per batch), BATCHES (10).
import Fastify from 'fastify';
import helmet from 'helmet';
import { median } from '../kit/stats.mjs';
import { registerSecurityHeaders } from '../../packages/web/dist/server/index.js';
import { freshNonce } from '../../packages/web/dist/server/security/nonce-source.js';
import { helmetOptions } from '../../packages/web/dist/server/security/security-policy.js';

const REQUESTS = Number(process.env.REQUESTS || 4000);
const BATCHES = Number(process.env.BATCHES || 10);

/** The per-request helmet middleware the runtime ran before the header block. */
function registerHelmetPerRequest(app) {
  const nonces = new WeakMap();
  // helmet calls a directive function per response; this one hands out the response's nonce.
  const options = helmetOptions({}, 'NONCE');
  options.contentSecurityPolicy.directives['script-src'] = [
    (_request, response) => {
      const nonce = freshNonce();
      nonces.set(response, nonce);
      return `'nonce-${nonce}'`;
    },
    "'strict-dynamic'",
  ];
  const apply = helmet(options);
  app.addHook('onRequest', (request, reply, done) => apply(request.raw, reply.raw, done));
}

async function appWith(register) {
  const app = Fastify();
  register(app);
  app.get('/', (_request, reply) => reply.type('text/html').send('<p>ok</p>'));
  await app.ready();
  return app;
}

const apps = {
  'per request (helmet middleware)': await appWith(registerHelmetPerRequest),
  'computed once (header block)': await appWith((app) => registerSecurityHeaders(app, {})),
};
for (const [name, app] of Object.entries(apps)) {
  const response = await app.inject('/');
  if (!response.headers['content-security-policy'] || !response.headers['x-frame-options'])
    throw new Error(`${name}: headers missing`);
}

async function batch(app) {
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) await app.inject('/');
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

const samples = Object.fromEntries(Object.keys(apps).map((name) => [name, []]));
for (const app of Object.values(apps)) await batch(app); // warm-up
for (let round = 0; round < BATCHES; round++) {
  const order = round % 2 === 0 ? Object.keys(apps) : Object.keys(apps).reverse();
  for (const name of order) samples[name].push(await batch(apps[name]));
}
const [before, after] = Object.values(samples).map(median);
for (const [name, values] of Object.entries(samples))
  console.log(
    `${name}: ${median(values).toFixed(1)} µs CPU per request (median of ${BATCHES} batches of ${REQUESTS})`,
  );
console.log(
  `computed once ÷ per request: ${(after / before).toFixed(3)}; saved ${(before - after).toFixed(1)} µs per request`,
);
