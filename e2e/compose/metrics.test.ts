/**
 * Every part of the stack is measurable from its networks, and only from there: render, data and
 * relay serve Prometheus metrics with samples of the traffic that went through the gateway, and
 * the gateway counts its requests on a listener of its own; none of these ports is published.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, startComposeStack, type ComposeStack } from './compose-stack.js';
import { sampleSum } from '@strata/testing';
import { fetchInside, parseStubStatus } from './metrics-scrape.js';
import { errorEnvelope } from './recorder.js';

const CATALOG = 'strata.catalog.v1.CatalogService';
// Not one of the relay's DSNs: the relay refuses it (403), which it still times.
const FOREIGN_DSN = 'http://strata0unknown0key@127.0.0.1:8080/9';
const PAGES = ['/bench/items', '/items', '/bench/items', '/items'];

let stack: ComposeStack;

beforeAll(async () => {
  stack = await startComposeStack('metrics');
  // Traffic through the published port, so every histogram has samples.
  for (const path of PAGES) await send(path, {}, 200);
  await send('/monitoring', { method: 'POST', body: errorEnvelope(FOREIGN_DSN, 'test').body }, 403);
}, 600_000);

afterAll(async () => {
  await stack?.down();
}, 120_000);

/** One request through the gateway, which must answer `status`. */
async function send(path: string, init: RequestInit, status: number): Promise<void> {
  const response = await fetch(`${stack.url}${path}`, init);
  await response.text();
  if (response.status !== status)
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}, not ${status}`);
}

/** Scrapes `url` inside every replica of `service` and returns each body. */
async function scrapeEach(service: string, url: string): Promise<string[]> {
  const ids = await stack.containersOf(service);
  expect(ids.length, `${service} containers`).toBeGreaterThan(0);
  return Promise.all(ids.map((id) => fetchInside(id, url)));
}

/** Sum of a sample over the replicas' scrapes. */
const total = (texts: readonly string[], name: string, labels: Record<string, string> = {}) =>
  texts.reduce((sum, text) => sum + (sampleSum(text, name, labels) ?? 0), 0);

describe('service metrics, scraped on the stack’s networks', () => {
  it('render: request durations by route and its data calls, with samples', async () => {
    const texts = await scrapeEach('render', 'http://127.0.0.1:3000/metrics');
    expect(texts, 'render replicas').toHaveLength(2);
    expect(
      total(texts, 'http_request_duration_seconds_count', { method: 'GET', status_code: '200' }),
    ).toBeGreaterThanOrEqual(PAGES.length);
    expect(
      total(texts, 'grpc_client_handling_seconds_count', {
        grpc_service: CATALOG,
        grpc_code: 'OK',
      }),
    ).toBeGreaterThan(0);
    for (const text of texts)
      expect(sampleSum(text, 'process_cpu_user_seconds_total')).toBeDefined();
  });

  it('data: every replica serves grpc_server_handling_seconds and Node’s default metrics', async () => {
    const texts = await scrapeEach('data', 'http://127.0.0.1:9464/metrics');
    expect(texts.length).toBe(2);
    expect(
      total(texts, 'grpc_server_handling_seconds_count', {
        grpc_type: 'unary',
        grpc_service: CATALOG,
        grpc_code: 'OK',
      }),
    ).toBeGreaterThan(0);
    for (const text of texts) {
      // The container's health check calls grpc.health.v1.Health/Check on every replica.
      expect(
        sampleSum(text, 'grpc_server_handling_seconds_count', {
          grpc_service: 'grpc.health.v1.Health',
          grpc_method: 'Check',
        }),
      ).toBeGreaterThan(0);
      expect(sampleSum(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      expect(sampleSum(text, 'nodejs_eventloop_lag_seconds')).toBeDefined();
    }
  });

  it('data: the render replicas reach the metrics port over the network', async () => {
    const text = await fetchInside(await stack.containerOf('render'), 'http://data:9464/metrics');
    expect(text).toMatch(/^# TYPE grpc_server_handling_seconds histogram$/m);
  });

  it('relay: request durations of what came through /monitoring', async () => {
    // Two replicas: the refused report reached one of them.
    const texts = await scrapeEach('relay', 'http://127.0.0.1:3100/metrics');
    expect(texts, 'relay replicas').toHaveLength(2);
    expect(
      total(texts, 'http_request_duration_seconds_count', { method: 'POST', status_code: '403' }),
    ).toBeGreaterThan(0);
  });
});

describe('gateway request counts', () => {
  it('serves stub_status on 8082 inside the stack, counting the page requests', async () => {
    const render = await stack.containerOf('render');
    const read = async () =>
      parseStubStatus(await fetchInside(render, 'http://gateway:8082/stub_status'));
    const before = await read();
    expect(before.requests).toBeGreaterThanOrEqual(PAGES.length);
    expect(before.accepts).toBeGreaterThan(0);
    expect(before.handled).toBe(before.accepts);
    expect(before.active).toBeGreaterThan(0);
    for (const path of PAGES) await fetch(`${stack.url}${path}`).then((r) => r.text());
    const after = await read();
    // The pages, and this scrape's own request.
    expect(after.requests - before.requests).toBeGreaterThanOrEqual(PAGES.length + 1);
    expect(await fetchInside(render, 'http://gateway:8082/other').catch(String)).toMatch(/404/);
  });

  it('is not reachable through the published port', async () => {
    const response = await fetch(`${stack.url}/stub_status`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('Active connections');
  });
});

describe('published surface', () => {
  it('publishes neither the metrics ports nor the gateway’s internal listeners', async () => {
    const bound = async (service: string) => {
      const id = await stack.containerOf(service);
      const ports = JSON.parse(
        await run(['docker', 'inspect', '-f', '{{json .NetworkSettings.Ports}}', id]),
      ) as Record<string, unknown[] | null>;
      return Object.entries(ports)
        .filter(([, bindings]) => (bindings ?? []).length > 0)
        .map(([port]) => port);
    };
    expect(await bound('gateway')).toEqual(['8080/tcp']);
    for (const service of ['render', 'data', 'relay'])
      expect(`${service}: ${await bound(service)}`).toBe(`${service}: `);
  });
});
