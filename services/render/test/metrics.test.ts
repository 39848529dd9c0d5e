/**
 * GET /metrics: the standard request histogram by route pattern and status (pages by the app's
 * own patterns, unknown URLs as `/404`), and the data calls' duration by method and status code,
 * beside the segment cache's own metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import {
  payloadRequest,
  startCachedStack,
  type CachedStack,
  type Replica,
} from './harness/start-cached-render.js';

/** The tree of a browser showing a benchmark page (a payload request's Strata-Tree). */
const TREE = '1;bench-root/bench-section/bench-items';

let stack: CachedStack;
beforeAll(async () => {
  stack = await startCachedStack({ count: 1 });
}, 60_000);
afterAll(() => stack?.stop());

describe('GET /metrics', () => {
  it('has request durations by route and status, and data calls by method and code', async () => {
    const [replica] = stack.replicas as [Replica];
    expect((await replica.app.inject('/api/items/5')).statusCode).toBe(200);
    expect((await replica.app.inject('/api/items/999999')).statusCode).toBe(404);
    expect((await replica.app.inject('/readyz')).statusCode).toBe(200);
    const text = (await replica.app.inject('/metrics')).body;
    const requests = (route: string, status: number) =>
      new RegExp(
        `http_request_duration_seconds_count\\{method="GET",route="${route}",status_code="${status}"\\} 1`,
      );
    expect(text).toMatch(requests('/api/items/:id', 200));
    expect(text).toMatch(requests('/api/items/:id', 404));
    expect(text).not.toMatch(/route="\/(readyz|metrics)"/);
    const calls = (code: string) =>
      new RegExp(
        `grpc_client_handling_seconds_count\\{grpc_service="strata.catalog.v1.CatalogService",grpc_method="GetItem",grpc_code="${code}"\\} 1`,
      );
    expect(text).toMatch(calls('OK'));
    expect(text).toMatch(calls('NOT_FOUND'));
    expect(text).toContain('strata_segment_cache_');
  });

  it('labels pages and payloads by their route pattern and every unknown URL as /404', async () => {
    const [replica] = stack.replicas as [Replica];
    const get = (url: string, headers: Record<string, string> = {}) =>
      replica.app.inject({ url, headers });
    expect((await get('/items/5')).statusCode).toBe(200);
    expect((await get('/items/999999')).statusCode).toBe(404);
    const payload = payloadRequest('/bench/items/7', TREE);
    expect((await get(payload.url, payload.headers)).statusCode).toBe(200);
    expect((await get('/no/such/page')).statusCode).toBe(404);
    const text = (await get('/metrics')).body;
    const requests = (route: string, status: number) =>
      `http_request_duration_seconds_count{method="GET",route="${route}",status_code="${status}"} 1`;
    expect(text).toContain(requests('/items/:id', 200));
    expect(text).toContain(requests('/items/:id', 404));
    expect(text).toContain(requests('/bench/items/:id', 200));
    expect(text).toContain(requests('/404', 404));
    expect(text).not.toContain('route="/*"');
  });

  it('adds no label value for URLs a client makes up', async () => {
    const [replica] = stack.replicas as [Replica];
    const routeLabels = async () =>
      new Set(
        [...(await replica.app.inject('/metrics')).body.matchAll(/[{,]route="([^"]*)"/g)].map(
          (match) => match[1],
        ),
      );
    await replica.app.inject('/no/such/page');
    const before = await routeLabels();
    for (let index = 0; index < 50; index++) {
      const path = `/${randomBytes(6).toString('hex')}/${index % 2 ? 'items' : randomBytes(3).toString('base64url')}`;
      const request = index % 3 ? { url: path, headers: {} } : payloadRequest(path, TREE);
      const answer = await replica.app.inject({ url: request.url, headers: request.headers });
      expect(answer.statusCode).toBe(404);
    }
    expect(await routeLabels()).toEqual(before);
  });
});
