/**
 * The tunnel without a gateway: the render service streams POST /monitoring to a real relay
 * (in process, in front of a recording upstream) and passes its answers back unchanged.
 */
import { buildApp, loadRelayConfig, type RelayApp } from '@strata/relay';
import Fastify, { type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayTunnel } from '../src/telemetry/relay-tunnel.js';

const DSN = 'http://tunnel0key@127.0.0.1:9/7';

let upstream: { server: Server; bodies: string[]; url: string };
let relay: RelayApp;
let relayUrl: string;
let spool: string;
let render: FastifyInstance;

/**
 * A browser envelope with one error event, under an event id of its own: the relay forwards an
 * id it has already accepted only once.
 */
function envelope(message: string, dsn = DSN, eventId = randomUUID().replaceAll('-', '')): string {
  const event = JSON.stringify({ event_id: eventId, message, level: 'error' });
  return `${JSON.stringify({ event_id: eventId, dsn })}\n{"type":"event"}\n${event}\n`;
}

beforeAll(async () => {
  const bodies: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString());
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  upstream = { server, bodies, url: `http://127.0.0.1:${(address as { port: number }).port}` };
  spool = await mkdtemp(join(tmpdir(), 'render-tunnel-spool-'));
  relay = await buildApp({
    config: loadRelayConfig({
      RELAY_DSNS: DSN,
      RELAY_UPSTREAM: upstream.url,
      RELAY_SPOOL_DIR: spool,
      RELAY_TRUST_PROXY: 'true',
    }),
    logger: pino({ level: 'silent' }),
  });
  relayUrl = await relay.app.listen({ port: 0, host: '127.0.0.1' });
  render = Fastify();
  await render.register(relayTunnel, { relayUrl, path: '/monitoring' });
  // Another route keeps its own body parsing (the tunnel's is encapsulated).
  render.post('/echo', async (request) => request.body);
}, 60_000);

afterAll(async () => {
  await render?.close();
  await relay?.shutdown(2000);
  await new Promise((resolve) => upstream?.server.close(resolve));
  await rm(spool, { recursive: true, force: true });
});

describe('relay tunnel', () => {
  it('forwards a browser envelope (text/plain) to the relay, which forwards it upstream', async () => {
    const answer = await render.inject({
      method: 'POST',
      url: '/monitoring',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      payload: envelope('tunnelled plain', DSN, 'a'.repeat(32)),
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ id: 'a'.repeat(32) });
    await expect.poll(() => upstream.bodies.some((b) => b.includes('tunnelled plain'))).toBe(true);
  });

  it('passes compressed bodies through byte for byte', async () => {
    const answer = await render.inject({
      method: 'POST',
      url: '/monitoring',
      headers: { 'content-encoding': 'gzip' },
      payload: gzipSync(envelope('tunnelled gzip')),
    });
    expect(answer.statusCode).toBe(200);
    await expect.poll(() => upstream.bodies.some((b) => b.includes('tunnelled gzip'))).toBe(true);
  });

  it("returns the relay's refusals unchanged (status, code and X-Sentry-Error)", async () => {
    const answer = await render.inject({
      method: 'POST',
      url: '/monitoring',
      payload: envelope('forged', 'http://someone0else@127.0.0.1:9/99'),
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().error.code).toBe('RELAY_DSN_NOT_ALLOWED');
    expect(answer.headers['x-sentry-error']).toBeTruthy();
    expect(upstream.bodies.some((b) => b.includes('forged'))).toBe(false);
  });

  it('leaves the body parsing of other routes alone', async () => {
    const answer = await render.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    expect(answer.json()).toEqual({ a: 1 });
  });

  it('answers 502 RELAY_UNAVAILABLE when the relay is down', async () => {
    const orphan = Fastify();
    await orphan.register(relayTunnel, { relayUrl: 'http://127.0.0.1:9', path: '/monitoring' });
    // Over a real socket: inject's in-memory request fails with the upstream's connect error.
    const address = await orphan.listen({ port: 0, host: '127.0.0.1' });
    const answer = await fetch(`${address}/monitoring`, { method: 'POST', body: envelope('lost') });
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(
      'RELAY_UNAVAILABLE',
    );
    await orphan.close();
  });
});
