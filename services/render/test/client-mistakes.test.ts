/**
 * Client mistakes are answered 4xx and never logged or reported as server errors: list filters
 * the data service's rules refuse (checked before the call), forged page tokens, and the
 * refusals of the static files (a path that leaves the assets directory, a NUL).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { payloadHash } from '@strata/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRender, type RenderUnderTest } from './harness/start-render.js';

let stack: RenderUnderTest;
let port: number;
const root = mkdtempSync(join(tmpdir(), 'strata-assets-'));
beforeAll(async () => {
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'assets', 'client-test.js'), 'export {};');
  writeFileSync(join(root, 'secret.txt'), 'not for browsers');
  stack = await startRender(
    {},
    {
      assets: {
        directory: join(root, 'assets'),
        scripts: ['/assets/client-test.js'],
        contentHash: 'test',
      },
    },
  );
  await stack.app.listen({ port: 0, host: '127.0.0.1' });
  port = (stack.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await stack.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Server errors logged since `from` (what would be reported, with telemetry on). */
const serverErrorsSince = (from: number) =>
  stack.logged.slice(from).filter((line) => Number(line['level']) >= 50);

/** A GET with the target exactly as given (inject would normalise `..` first). */
function get(target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path: target }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('the item list page', () => {
  it.each([
    ['a malformed category', '/items?category=BAD!'],
    ['a search over 200 characters', `/items?q=${'x'.repeat(201)}`],
    ['a NUL in the search', '/items?q=a%00b'],
  ])('shows the not-found view (404) for %s, without asking the data service', async (_n, url) => {
    const logged = stack.logged.length;
    const listed = stack.listItemsRequests.length;
    const response = await stack.app.inject({ url });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<h1>Not found</h1>');
    expect(stack.listItemsRequests.length).toBe(listed);
    expect(serverErrorsSince(logged)).toEqual([]);
  });

  it.each([
    ['/items?page=forged.token', '/items'],
    ['/items?category=cat-1&q=Item&page=forged.token', '/items?category=cat-1&q=Item'],
    ['/items?q=Item&page=%3Cscript%3E', '/items?q=Item'],
  ])('sends %s, whose token is refused, to the first page', async (url, first) => {
    const logged = stack.logged.length;
    const response = await stack.app.inject({ url });
    expect(response.statusCode).toBe(307);
    expect(response.headers.location).toBe(first);
    expect(serverErrorsSince(logged)).toEqual([]);
  });

  it('sends a token issued for another query to the first page of this one', async () => {
    const first = await stack.app.inject({ url: '/items?category=cat-3' });
    const token = /rel="next" href="[^"]*page=([^"&]+)"/.exec(first.body)?.[1];
    expect(token).toBeDefined();
    const response = await stack.app.inject({ url: `/items?category=cat-4&page=${token}` });
    expect(response.statusCode).toBe(307);
    expect(response.headers.location).toBe('/items?category=cat-4');
  });

  it('answers a client navigation with a malformed filter with a not-found record', async () => {
    const tree = '1;shop';
    const response = await stack.app.inject({
      url: `/items?category=BAD!&_p=${payloadHash({ tree, prefetch: undefined })}`,
      headers: { 'strata-payload': '1', 'strata-tree': tree },
    });
    expect(response.body).toContain('{"type":"not-found","segment":"item-list","v":1}');
  });

  it('still lists nothing, with 200, for a well-formed category that does not exist', async () => {
    const response = await stack.app.inject({ url: '/items?category=cat-999' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('No items match.');
  });
});

describe('GET /api/items', () => {
  it.each([
    ['category', '/api/items?category=BAD!', 'category'],
    ['a search over 200 characters', `/api/items?q=${'x'.repeat(201)}`, 'q'],
    ['a NUL in the search', '/api/items?q=%00', 'q'],
    ['a category given twice', '/api/items?category=cat-1&category=cat-2', 'category'],
    ['a page token in characters no token has', '/api/items?pageToken=a%20b', 'pageToken'],
  ])('answers 400 INVALID_QUERY for %s without asking the data service', async (_n, url, field) => {
    const listed = stack.listItemsRequests.length;
    const response = await stack.app.inject({ url });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'INVALID_QUERY' } });
    expect(Object.keys(response.json().error.fields)).toEqual([field]);
    expect(stack.listItemsRequests.length).toBe(listed);
  });

  it('answers 400 INVALID_QUERY naming pageToken when the data service refuses the token', async () => {
    const logged = stack.logged.length;
    const listed = stack.listItemsRequests.length;
    const response = await stack.app.inject({ url: '/api/items?pageToken=forged.token' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'INVALID_QUERY',
        message: 'Invalid query parameters.',
        fields: {
          pageToken: [
            'Page token is invalid or belongs to a different query; start from the first page.',
          ],
        },
      },
    });
    expect(stack.listItemsRequests.length).toBe(listed + 1);
    expect(serverErrorsSince(logged)).toEqual([]);
  });
});

describe('static files', () => {
  it('serves the bundle', async () => {
    expect(await get('/assets/client-test.js')).toEqual({ status: 200, body: 'export {};' });
  });

  it.each([
    '/assets/../secret.txt',
    '/assets/%2e%2e/secret.txt',
    '/assets/%2E%2E/secret.txt',
    '/assets/%00',
    '/assets/client-test.js%00',
    '/assets/',
  ])('keep the 403 the static files raise for %s, and report nothing', async (target) => {
    const logged = stack.logged.length;
    const response = await get(target);
    expect(response.status).toBe(403);
    expect(JSON.parse(response.body)).toEqual({
      error: { code: 'FORBIDDEN', message: 'Forbidden.' },
    });
    expect(response.body).not.toContain('secret');
    expect(serverErrorsSince(logged)).toEqual([]);
  });
});

describe('server errors', () => {
  it('are still 500, logged with their digest', async () => {
    const logged = stack.logged.length;
    const response = await stack.app.inject({ url: '/errors/server' });
    expect(response.statusCode).toBe(500);
    expect(serverErrorsSince(logged)).toHaveLength(1);
  });
});
