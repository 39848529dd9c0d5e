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

  it('labels a request with the route routeOf names, and with the Fastify pattern where it names none', async () => {
    const registry = new Registry();
    const app = Fastify();
    // As a catch-all page route does: the page's pattern, from a fixed set whatever the URL.
    const pages = new WeakMap<object, string>();
    registerHttpMetrics(app, registry, { routeOf: (request) => pages.get(request) });
    app.get('/api/ping', async () => ({ ok: true }));
    app.get('/*', async (request, reply) => {
      const known = /^\/items\/\d+$/.test(request.url);
      pages.set(request, known ? '/items/:id' : '/404');
      return reply.code(known ? 200 : 404).send();
    });
    for (const url of ['/items/1', '/items/2', '/api/ping', '/nowhere', '/x/y/z'])
      await app.inject(url);
    const text = await registry.metrics();
    const count = (route: string, status: number, n: number) =>
      `http_request_duration_seconds_count{method="GET",route="${route}",status_code="${status}"} ${n}`;
    expect(text).toContain(count('/items/:id', 200, 2));
    expect(text).toContain(count('/404', 404, 2));
    expect(text).toContain(count('/api/ping', 200, 1));
    expect(text).not.toContain('route="/*"');
    expect(text).not.toContain('/nowhere');
    await app.close();
  });
});
