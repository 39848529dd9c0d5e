/**
 * The data service's Prometheus endpoint (DATA_METRICS_PORT): Node's default metrics under their
 * standard names and `grpc_server_handling_seconds` for every call it served, with the method,
 * streaming type and status code each ended with.
 */
import { status } from '@grpc/grpc-js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDataConfig, startDataService, type RunningDataService } from '../src/index.js';
import { createTestClient, expectCallError } from './harness/catalog-client.js';
import { sampleSum } from '@strata/testing';
import { checkHealth } from './harness/standard-clients.js';
import { collectChanges } from './harness/watch-collector.js';

const silent = pino({ level: 'silent' });
const CATALOG = 'strata.catalog.v1.CatalogService';
const HISTOGRAM = 'grpc_server_handling_seconds';

let service: RunningDataService;
let metricsUrl: string;

beforeAll(async () => {
  service = await startDataService(
    loadDataConfig({ DATA_PORT: '0', DATA_METRICS_PORT: '0', DATA_DIR: 'memory://' }),
    silent,
  );
  metricsUrl = `http://127.0.0.1:${service.metricsPort}/metrics`;
});

afterAll(async () => {
  await service?.stop();
});

async function scrape(): Promise<string> {
  const response = await fetch(metricsUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** Scrapes until `count` calls of a method ended with `code` (a cancel is recorded a tick late). */
async function waitForCount(labels: Record<string, string>, count: number): Promise<string> {
  const until = Date.now() + 10_000;
  for (;;) {
    const text = await scrape();
    if ((sampleSum(text, `${HISTOGRAM}_count`, labels) ?? 0) >= count || Date.now() > until)
      return text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('GET /metrics on DATA_METRICS_PORT', () => {
  it('times every served call by type, service, method and status code', async () => {
    const client = createTestClient(service.address);
    try {
      await client.listCategories({});
      const { items } = await client.listItems({ pageSize: 1 });
      const id = items[0]?.id ?? 0;
      await client.getItem({ id });
      await client.getItem({ id });
      const missing = await expectCallError(client.getItem({ id: 987_654_321 }));
      expect(missing.code).toBe(status.NOT_FOUND);
      // A server stream the client walks away from.
      const watch = collectChanges(client);
      await watch.ready;
      watch.close();
      expect(await checkHealth(service.address)).toBe('SERVING');
    } finally {
      client.close();
    }

    const text = await waitForCount({ grpc_method: 'WatchChanges' }, 1);
    const count = (method: string, code: string, type = 'unary', grpcService = CATALOG) =>
      sampleSum(text, `${HISTOGRAM}_count`, {
        grpc_type: type,
        grpc_service: grpcService,
        grpc_method: method,
        grpc_code: code,
      });
    expect(count('GetItem', 'OK')).toBe(2);
    expect(count('GetItem', 'NOT_FOUND')).toBe(1);
    expect(count('ListCategories', 'OK')).toBe(1);
    expect(count('ListItems', 'OK')).toBe(1);
    expect(count('WatchChanges', 'CANCELLED', 'server_stream')).toBe(1);
    // Every service on the server is measured, the standard ones too.
    expect(count('Check', 'OK', 'unary', 'grpc.health.v1.Health')).toBe(1);
    // A histogram: buckets up to +Inf and a sum of seconds.
    expect(
      sampleSum(text, `${HISTOGRAM}_bucket`, {
        grpc_method: 'GetItem',
        grpc_code: 'NOT_FOUND',
        le: '+Inf',
      }),
    ).toBe(1);
    const seconds = sampleSum(text, `${HISTOGRAM}_sum`, { grpc_method: 'GetItem' }) ?? -1;
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(10);
  });

  it('exposes Node’s default metrics under their standard, unprefixed names', async () => {
    const text = await scrape();
    expect(sampleSum(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).toMatch(/^# TYPE nodejs_eventloop_lag_seconds gauge$/m);
    expect(sampleSum(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sampleSum(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('answers nothing else: 404 for other paths, 405 for other methods', async () => {
    const base = `http://127.0.0.1:${service.metricsPort}`;
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/healthz`)).status).toBe(404);
    const post = await fetch(`${base}/metrics`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});

describe('a metrics port already taken', () => {
  it('fails the start with the listen error', async () => {
    const taken = String(service.metricsPort);
    await expect(
      startDataService(
        loadDataConfig({ DATA_PORT: '0', DATA_METRICS_PORT: taken, DATA_DIR: 'memory://' }),
        silent,
      ),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('without DATA_METRICS_PORT', () => {
  it('opens no metrics listener', async () => {
    const plain = await startDataService(
      loadDataConfig({ DATA_PORT: '0', DATA_DIR: 'memory://' }),
      silent,
    );
    try {
      expect(plain.metricsPort).toBeUndefined();
    } finally {
      await plain.stop();
    }
  });
});
