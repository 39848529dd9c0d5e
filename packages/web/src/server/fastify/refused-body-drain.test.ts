/**
 * Refused bodies are read before the answer goes out (so a proxy that sends the whole body first
 * sees the refusal, not a closed connection), within a byte bound; a body the route already read
 * delays nothing.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainRefusedBodies } from './refused-body-drain.js';

const LIMITS = { maxBytes: 256 * 1024, timeoutMs: 3000 };

let app: FastifyInstance;
let port: number;
beforeAll(async () => {
  app = Fastify();
  drainRefusedBodies(app, LIMITS);
  app.post('/items', async (request, reply) => reply.code(201).send(request.body));
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
});
afterAll(() => app.close());

interface Answer {
  readonly status: number;
  readonly connection: string | undefined;
  /** When the answer's headers arrived, and when the last part of the body was handed over. */
  readonly answeredAt: number;
  readonly sentAt: number;
}

/** POSTs `parts` of a body Fastify refuses unread (415), pausing between parts. */
async function postInParts(parts: readonly Buffer[], pauseMs: number): Promise<Answer> {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const request = http.request({
    port,
    method: 'POST',
    path: '/items',
    headers: { 'content-type': 'application/x-unknown', 'content-length': String(length) },
  });
  const answered = new Promise<Omit<Answer, 'sentAt'>>((resolve, reject) => {
    request.on('response', (response) => {
      const answeredAt = performance.now();
      response.resume();
      response.on('end', () =>
        resolve({
          status: response.statusCode!,
          connection: response.headers.connection,
          answeredAt,
        }),
      );
    });
    request.on('error', reject);
  });
  answered.catch(() => undefined); // awaited below, once the body is sent
  let sentAt = 0;
  for (const [index, part] of parts.entries()) {
    if (index > 0) await sleep(pauseMs);
    if (request.destroyed) break;
    sentAt = performance.now();
    request.write(part);
  }
  request.end();
  return { ...(await answered), sentAt };
}

describe('drainRefusedBodies', () => {
  it('answers a refused request only after its whole body has arrived, keeping the connection', async () => {
    const answer = await postInParts([Buffer.alloc(32 * 1024), Buffer.alloc(32 * 1024)], 300);
    expect(answer.status).toBe(415);
    expect(answer.answeredAt).toBeGreaterThanOrEqual(answer.sentAt);
    expect(answer.connection).toBe('keep-alive');
  });

  it('answers at once and closes the connection when the refused body is over its bound', async () => {
    const started = performance.now();
    const answer = await postInParts([Buffer.alloc(LIMITS.maxBytes + 1)], 0);
    expect(answer.status).toBe(415);
    expect(answer.connection).toBe('close');
    expect(performance.now() - started).toBeLessThan(LIMITS.timeoutMs);
  });

  it('does not wait for a body the route has already read, injected or not', async () => {
    const started = performance.now();
    const injected = await app.inject({ method: 'POST', url: '/items', payload: { a: 1 } });
    expect(injected.statusCode).toBe(201);
    expect(injected.json()).toEqual({ a: 1 });
    const response = await fetch(`http://127.0.0.1:${port}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ b: 2 }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('connection')).not.toBe('close');
    expect(performance.now() - started).toBeLessThan(LIMITS.timeoutMs / 2);
  });
});
