import Fastify from 'fastify';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { registerHttpMetrics } from './http-metrics.js';

describe('registerHttpMetrics', () => {
  it('records each answer by method, route pattern and status; unmatched and ignored routes apart', async () => {
    const registry = new Registry();
    const app = Fastify();
    registerHttpMetrics(app, registry, { ignoreRoutes: ['/healthz'] });
    app.get('/items/:id', async (request, reply) =>
      (request.params as { id: string }).id === '0' ? reply.code(404).send() : { ok: true },
    );
    app.get('/healthz', async () => ({ ok: true }));
    for (const url of ['/items/1', '/items/2', '/items/0', '/healthz', '/nowhere'])
      await app.inject(url);
    const text = await registry.metrics();
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/items\/:id",status_code="200"\} 2/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/items\/:id",status_code="404"\} 1/,
    );
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="unmatched",status_code="404"\} 1/,
    );
    expect(text).not.toContain('/healthz');
    expect(text).not.toContain('/items/1');
    await app.close();
  });
});
