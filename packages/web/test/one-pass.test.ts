/**
 * Which documents are sent whole and which are streamed: a page with no loading view and no
 * deferred values is rendered in one pass and sent with a Content-Length; deferred data, a
 * loading view or a component that suspends on its own keep the streaming path.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestServer, type TestServer } from './harness/build-test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.app.close();
  server = undefined;
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

async function get(path: string): Promise<Raw> {
  server ??= await buildTestServer();
  if (!server.app.server.listening) await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as AddressInfo;
  return new Promise((resolve, reject) =>
    httpRequest(`http://127.0.0.1:${port}${path}`, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
    })
      .on('error', reject)
      .end(),
  );
}

function inlineEntries(html: string): unknown[][] {
  const pushed: unknown[][] = [];
  for (const [, script] of html.matchAll(/<script>(\(self\.__strata[\s\S]*?)<\/script>/g))
    new Function('self', script ?? '')({ __strata: pushed });
  return pushed;
}

describe('one-pass documents', () => {
  it('sends a page without loading views or deferred values whole, with a Content-Length', async () => {
    const response = await get('/section/items?q=et');
    expect(response.status).toBe(200);
    expect(response.headers['content-length']).toBe(String(response.body.length));
    expect(response.headers['transfer-encoding']).toBeUndefined();
    expect(response.headers['x-accel-buffering']).toBeUndefined();
    expect(response.headers['strata-build']).toBe('build-1');
    expect(response.headers['vary']).toBe('Strata-Payload, Strata-Tree, Strata-Prefetch');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');

    const html = response.body.toString();
    expect(html.startsWith('<!DOCTYPE html><html lang="en"><head>')).toBe(true);
    expect(html).toMatch(
      /<head>.*<link rel="modulepreload" href="\/assets\/client-abc123\.js" fetchPriority="low"\/>.*<\/head>/,
    );
    expect(html).toContain('<ul class="items"><li>beta</li></ul>');
    // The boot record and the client bundle close the body, as React's streamed shell does.
    const boot =
      /<script>(self\.__strata_boot=[^<]*)<\/script><script type="module" src="\/assets\/client-abc123\.js" async=""><\/script><\/body><\/html>$/.exec(
        html,
      );
    expect(boot).not.toBeNull();
    const window: { __strata_boot?: { segments: string[]; route: string } } = {};
    new Function('self', boot?.[1] ?? '')(window);
    expect(window.__strata_boot).toMatchObject({
      route: 'items',
      segments: ['shop', 'section', 'items'],
    });
    // Hydration data for every segment, inside the markup it belongs to.
    const entries = inlineEntries(html);
    expect(entries.map((entry) => entry[1])).toEqual(['shop', 'section', 'items']);
    expect(entries[2]?.[2]).toMatchObject({
      key: 'items(s.q=et)',
      outcome: { status: 'ok', data: { q: 'et', items: ['beta'] } },
    });
  });

  it('sends not-found pages whole too, with their status', async () => {
    const response = await get('/section/items/missing');
    expect(response.status).toBe(404);
    expect(response.headers['content-length']).toBe(String(response.body.length));
    expect(response.body.toString()).toContain('<p class="not-found">Nothing here</p>');
  });

  it('streams a page with deferred values', async () => {
    server = await buildTestServer();
    server.services.reviews.resolve(['fine']);
    const response = await get('/section/items/7');
    expect(response.status).toBe(200);
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(response.headers['transfer-encoding']).toBe('chunked');
    expect(response.headers['content-length']).toBeUndefined();
    expect(response.body.toString()).toContain('<ul class="reviews"><li>fine</li></ul>');
  });

  it('streams, and waits, when a component suspends behind its own boundary', async () => {
    const response = await get('/own-suspense');
    expect(response.status).toBe(200);
    expect(response.headers['x-accel-buffering']).toBe('no');
    const html = response.body.toString();
    expect(html).toContain('<p class="late">arrived late</p>');
    expect(html).not.toContain('<!--$!-->');
  });
});
