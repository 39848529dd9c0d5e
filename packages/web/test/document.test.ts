/**
 * Documents: status codes, redirects, not-found, error screens, safe hydration data, no leaks.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_ERROR_TEXT } from '../src/server/index.js';
import { buildTestServer } from './harness/build-test-server.js';

describe('documents', () => {
  it('streams a page with headers for proxies and the build, and inlines hydration data', async () => {
    const server = await buildTestServer();
    server.services.reviews.resolve(['good']);
    const response = await server.app.inject({ url: '/section/items/7' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-accel-buffering']).toBe('no');
    expect(response.headers['strata-build']).toBe('build-1');
    expect(response.headers['vary']).toBe('Strata-Payload, Strata-Tree, Strata-Prefetch');
    expect(response.body.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect(response.body).toContain(
      '<script type="module" src="/assets/client-abc123.js" async=""></script>',
    );
    expect(response.body).toContain('"key":"item(p.id=7)"');
    expect(response.body).toContain('<ul class="reviews"><li>good</li></ul>');
  });

  it('escapes loader data so it cannot break out of its script', async () => {
    const server = await buildTestServer();
    server.services.reviews.resolve([]);
    const { body } = await server.app.inject({ url: '/section/items/7' });
    const scripts = [...body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
    const withNote = scripts.find((text) => text.includes('Danger'));
    expect(withNote).toContain(
      'Danger \\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e \\u2028 end',
    );
    expect(body).not.toContain('<script>alert(1)</script>');
    // The pushed value decodes to exactly what the loader returned.
    const pushed: unknown[][] = [];
    new Function('self', withNote ?? '')({ __strata: pushed });
    const state = pushed[0]?.[2] as { outcome: { data: { note: string } } } | undefined;
    expect(state?.outcome.data.note).toBe('Danger </script><script>alert(1)</script> \u2028 end');
  });

  it('answers 404 with the not-found view for a missing item and for an unknown URL', async () => {
    const server = await buildTestServer();
    const missing = await server.app.inject({ url: '/section/items/missing' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('<p class="not-found">Nothing here</p>');
    const unknown = await server.app.inject({ url: '/no/such/page' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('<p class="not-found">Nothing here</p>');
    expect(unknown.body).toContain('"segments":["shop","not-found"]');
  });

  it('redirects with the loader’s status before anything is streamed', async () => {
    const server = await buildTestServer();
    const response = await server.app.inject({ url: '/section/items/moved' });
    expect(response.statusCode).toBe(308);
    expect(response.headers.location).toBe('/section/items/1');
  });

  it('shows the segment’s error view with a digest and leaks nothing', async () => {
    const server = await buildTestServer();
    const response = await server.app.inject({
      url: '/section/items/broken',
      headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    });
    expect(response.statusCode).toBe(500);
    const digest = /Item failed: (?:<!-- -->)?([0-9a-f]{10})/.exec(response.body)?.[1];
    expect(digest).toMatch(/^[0-9a-f]{10}$/);
    for (const secret of ['SELECT', 'secret_column', 'db.internal', 'at ', '.ts:'])
      expect(response.body).not.toContain(secret);
    const entry = server.logged.find((line) => line['digest'] === digest);
    expect(entry?.['msg']).toBe('loader failed');
    expect(entry?.['traceId']).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(JSON.stringify(entry)).toContain('secret_column');
  });

  it('gives the same bug the same digest on every request', async () => {
    const server = await buildTestServer();
    const digests = await Promise.all(
      [1, 2].map(
        async () =>
          /Item failed: (?:<!-- -->)?([0-9a-f]{10})/.exec(
            (await server.app.inject({ url: '/section/items/broken' })).body,
          )?.[1],
      ),
    );
    expect(digests[0]).toBeDefined();
    expect(digests[0]).toBe(digests[1]);
  });

  it('falls back to the application-error screen when no error view catches the failure', async () => {
    const server = await buildTestServer();
    const response = await server.app.inject({ url: '/crash' });
    expect(response.statusCode).toBe(500);
    expect(response.body).toContain(SERVER_ERROR_TEXT);
    const digest = /Digest: (?:<!-- -->)?([0-9a-f]{10})/.exec(response.body)?.[1];
    expect(server.logged.some((line) => line['digest'] === digest)).toBe(true);
    expect(response.body).toMatch(/Reference: (?:<!-- -->)?[0-9a-f]{32}/);
    expect(response.body).not.toContain('sk_live_123');
  });

  it('marks a segment that reads cookies as private', async () => {
    const server = await buildTestServer();
    const response = await server.app.inject({ url: '/account', headers: { cookie: 'user=ann' } });
    expect(response.body).toContain('Hello <!-- -->ann');
    expect(response.body).toContain('"key":"account-home","tags":[],"private":true');
  });
});
