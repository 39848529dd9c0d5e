/**
 * GET /metrics: the standard request histogram by route pattern and status, and the data calls'
 * duration by method and status code, beside the segment cache's own metrics.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCachedStack, type CachedStack, type Replica } from './harness/start-cached-render.js';

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
});
