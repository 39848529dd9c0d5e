/**
 * Every Location the runtime builds stays on the site: the `_p` correction, an action's 303,
 * redirects from loaders and actions. Requests go over a real socket with raw targets (inject
 * would parse `//host/x` as a URL before the server saw it).
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadHash } from '../src/index.js';
import { buildTestServer, type TestServer } from './harness/build-test-server.js';

let server: TestServer;
let port: number;
beforeAll(async () => {
  server = await buildTestServer();
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  port = (server.app.server.address() as AddressInfo).port;
});
afterAll(() => server.app.close());

/** One request with the target exactly as given. */
function send(
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; location: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: target,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, location: response.headers.location, body }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** What a browser on http://shop.test does with `location` stays on http://shop.test. */
function expectSameSite(location: string | undefined): void {
  expect(location).toMatch(/^\/(?![/\\])/);
  expect(location).not.toMatch(/[\\\t\n\r]/);
  expect(new URL(location!, 'http://shop.test/page').origin).toBe('http://shop.test');
}

const OFF_SITE = [
  'https://evil.example/x',
  '//evil.example/x',
  '/\\evil.example/x',
  '\\\\evil.example/x',
  '/\\/evil.example/x',
  '/.//evil.example/x',
  '/%2F%2Fevil.example/x',
  '/\t/evil.example/x',
  '/\n/evil.example/x',
  '\t//evil.example/x',
  ' //evil.example/x',
  'HTTPS:\\\\evil.example/x',
  'http:evil.example/x',
  'javascript:alert(1)',
];

describe('the _p correction (307)', () => {
  it.each([
    ['/.//evil.example/x', '/evil.example/x'],
    ['//evil.example/x', '/evil.example/x'],
    ['/\\evil.example/x', '/evil.example/x'],
    ['///evil.example/x', '/evil.example/x'],
    ['/%2F%2Fevil.example/x', '/%2F%2Fevil.example/x'],
    ['/section//items?q=a', '/section/items?q=a'],
    // Absolute form (as to a proxy): only the path and query count.
    ['http://evil.example//evil.example/x', '/evil.example/x'],
  ])('%s goes to %s on this site', async (target, path) => {
    const answer = await send(target, {
      headers: { 'strata-payload': '1', 'strata-tree': '1;' },
    });
    expect(answer.status).toBe(307);
    expectSameSite(answer.location);
    const hash = payloadHash({ tree: '1;', prefetch: undefined });
    expect(answer.location).toBe(`${path}${path.includes('?') ? '&' : '?'}_p=${hash}`);
  });

  it('corrects a payload request with no _p at all the same way', async () => {
    const answer = await send('/section/items?q=a', {
      headers: { 'strata-payload': '1', 'strata-tree': '1;' },
    });
    expect(answer.status).toBe(307);
    expect(answer.location).toBe(
      `/section/items?q=a&_p=${payloadHash({ tree: '1;', prefetch: undefined })}`,
    );
  });
});

describe('request targets', () => {
  it('answers a target that is not a path with 400 BAD_REQUEST', async () => {
    const answer = await send('*x');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 'BAD_REQUEST' } });
  });
});

describe('loader redirects', () => {
  it.each(OFF_SITE)('keep %j on this site, in documents and payloads', async (to) => {
    const target = `/away?to=${encodeURIComponent(to)}`;
    const document = await send(target);
    expect(document.status).toBe(307);
    expectSameSite(document.location);
    const tree = '1;';
    const payload = await send(`${target}&_p=${payloadHash({ tree, prefetch: undefined })}`, {
      headers: { 'strata-payload': '1', 'strata-tree': tree },
    });
    const redirect = payload.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; location?: string })
      .find((record) => record.type === 'redirect');
    expectSameSite(redirect?.location);
  });

  it('keep a same-site path exactly as given', async () => {
    const answer = await send(`/away?to=${encodeURIComponent('/section/items?q=a#top')}`);
    expect(answer.location).toBe('/section/items?q=a#top');
  });
});

describe('action redirects', () => {
  const form = (target: string, note: string) =>
    send(target, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://shop.test' },
      body: new URLSearchParams({ $action: server.actionId, note }).toString(),
    });

  it.each(OFF_SITE)('keep %j on this site, for forms and fetches', async (to) => {
    const posted = await form('/account', `goto:${to}`);
    expect(posted.status).toBe(303);
    expectSameSite(posted.location);
    const fetched = await send('/account', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: 'http://shop.test',
        'strata-action': server.actionId,
        'strata-tree': '1;',
      },
      body: JSON.stringify({ note: `goto:${to}` }),
    });
    const redirect = fetched.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; location?: string })
      .find((record) => record.type === 'redirect');
    expectSameSite(redirect?.location);
  });

  it.each([
    ['/.//evil.example/x', '/evil.example/x'],
    ['//evil.example/x', '/evil.example/x'],
    ['/\\evil.example/x', '/evil.example/x'],
  ])('send a form posted to %s back to %s (303)', async (target, path) => {
    const posted = await form(target, 'written');
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(path);
  });
});
