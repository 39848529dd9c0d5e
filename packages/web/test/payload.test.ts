/**
 * Payload answers for several pairs of (browser tree → target URL), compared with golden
 * files in fixtures/payloads (regenerate with UPDATE_GOLDEN=1 after a deliberate change).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { payloadHash } from '../src/index.js';
import { buildTestServer, type TestServer } from './harness/build-test-server.js';

function golden(name: string, raw: string): void {
  // Digests depend on the code's function names; the fixture pins the record shape.
  const actual = raw.replace(/"digest":"[0-9a-f]{10}"/g, '"digest":"<digest>"');
  const file = new URL(`./fixtures/payloads/${name}.ndjson`, import.meta.url);
  if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(file, actual);
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

async function payload(server: TestServer, url: string, tree: string, prefetch?: 'auto' | 'full') {
  const separator = url.includes('?') ? '&' : '?';
  const target = `${url}${separator}_p=${payloadHash({ tree, prefetch })}`;
  return server.app.inject({
    url: target,
    headers: {
      'strata-payload': '1',
      'strata-tree': tree,
      ...(prefetch && { 'strata-prefetch': prefetch }),
    },
  });
}

describe('payload diffs', () => {
  it.each([
    ['item-to-list', '/section/items', '1;shop/section/item(p.id=1)'],
    ['list-to-item', '/section/items/2', '1;shop/section/items(s.q=)'],
    ['search-change', '/section/items?q=al', '1;shop/section/items(s.q=)'],
    ['other-root', '/section/items', '1;account/account-home'],
    ['no-tree', '/section/items', '1;'],
    ['not-found', '/section/items/missing', '1;shop/section/items(s.q=)'],
    ['error', '/section/items/broken', '1;shop/section/items(s.q=)'],
    ['redirect', '/section/items/moved', '1;shop/section/items(s.q=)'],
    ['auto-stops-at-loading', '/slow', '1;shop/section/items(s.q=)', 'auto'],
    // The item page's reviews are deferred: an auto prefetch, which carries no deferred value,
    // stops before it so the navigation asks for it whole.
    ['auto-stops-at-deferred', '/section/items/2', '1;shop/section/items(s.q=)', 'auto'],
  ] as const)('%s', async (name, url, tree, prefetch?: 'auto' | 'full') => {
    const server = await buildTestServer();
    server.services.reviews.resolve(['r1']);
    const response = await payload(server, url, tree, prefetch);
    expect(response.headers['content-type']).toBe('application/x-strata-payload; v=1');
    expect(response.headers['vary']).toBe('Strata-Payload, Strata-Tree, Strata-Prefetch');
    golden(name, response.body);
  });

  it('streams segment records as loaders settle, the slow one last', async () => {
    const server = await buildTestServer();
    const pending = payload(server, '/slow', '1;', 'full');
    setTimeout(() => server.services.slow.resolve('late'), 20);
    const types = (await pending).body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; id?: string });
    expect(types.map((r) => r.type + (r.id ? `:${r.id}` : ''))).toEqual([
      'route',
      'segment:shop',
      'segment:slow-page',
      'end',
    ]);
  });

  it('sends a payload request without _p to the URL that matches its headers', async () => {
    const server = await buildTestServer();
    const response = await server.app.inject({
      url: '/section/items?q=al',
      headers: {
        'strata-payload': '1',
        'strata-tree': '1;shop/section',
        'strata-prefetch': 'auto',
      },
    });
    expect(response.statusCode).toBe(307);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.location).toBe(
      `/section/items?q=al&_p=${payloadHash({ tree: '1;shop/section', prefetch: 'auto' })}`,
    );
    expect(response.body).toBe('');
  });

  it('sends a client with a stale _p to the URL that matches its headers', async () => {
    const server = await buildTestServer();
    const response = await server.app.inject({
      url: '/section/items?_p=stale',
      headers: { 'strata-payload': '1', 'strata-tree': '1;' },
    });
    expect(response.statusCode).toBe(307);
    expect(response.headers.location).toBe(
      `/section/items?_p=${payloadHash({ tree: '1;', prefetch: undefined })}`,
    );
  });

  it.each([
    ['a malformed tree', { 'strata-tree': 'shop' }, 400, 'BAD_PAYLOAD_REQUEST'],
    ['an oversized tree', { 'strata-tree': `1;${'a'.repeat(5000)}` }, 431, 'TREE_TOO_LARGE'],
    [
      'a key part that is no param or search value',
      { 'strata-tree': '1;shop(b)' },
      400,
      'BAD_PAYLOAD_REQUEST',
    ],
    [
      'a key part with an unknown prefix',
      { 'strata-tree': '1;shop/item-detail(x.id=1)' },
      400,
      'BAD_PAYLOAD_REQUEST',
    ],
    [
      'an unknown prefetch kind',
      { 'strata-tree': '1;', 'strata-prefetch': 'everything' },
      400,
      'BAD_PAYLOAD_REQUEST',
    ],
  ])('answers %s (%j) with a clear %i', async (_name, headers, status, code) => {
    const server = await buildTestServer();
    const tree = headers['strata-tree'];
    const prefetch = (headers as { 'strata-prefetch'?: 'auto' })['strata-prefetch'];
    // With the right _p, so the refusal is about the headers and not a 307.
    const response = await server.app.inject({
      url: `/section/items?_p=${payloadHash({ tree, prefetch })}`,
      headers: { 'strata-payload': '1', ...headers },
    });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ error: { code } });
    expect(server.reported).toEqual([]);
  });
});

describe('whole or streamed payloads', () => {
  it('sends the records together with a Content-Length when nothing loads later', async () => {
    const server = await buildTestServer();
    const response = await payload(server, '/section/items', '1;shop/section/item(p.id=1)');
    expect(response.headers['content-length']).toBe(String(Buffer.byteLength(response.body)));
    expect(response.headers['x-accel-buffering']).toBeUndefined();
    expect(response.headers['strata-build']).toBe('build-1');
    const types = response.body
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual(['route', 'segment', 'end']);
  });

  it('streams when deferred values follow or a segment has a loading view', async () => {
    const server = await buildTestServer();
    server.services.reviews.resolve(['r1']);
    server.services.slow.resolve('ready');
    for (const [url, tree] of [
      ['/section/items/2', '1;shop/section/items(s.q=)'],
      ['/slow', '1;shop/section/items(s.q=)'],
    ] as const) {
      const response = await payload(server, url, tree);
      expect(response.headers['x-accel-buffering']).toBe('no');
      expect(response.headers['content-length']).toBeUndefined();
      expect(response.body.trim().split('\n').at(-1)).toContain('"type":"end"');
    }
  });
});
