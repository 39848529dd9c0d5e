/**
 * Security headers on a real Fastify app: every document (one pass, streamed, not-found, error
 * screens, a form's 422) carries the policy and the other headers, each response has its own
 * script nonce, and every script and module preload the document writes carries that nonce.
 */
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { payloadHash } from '../src/index.js';
import { registerSecurityHeaders, renderErrorScreen, scriptNonceOf } from '../src/server/index.js';
import { helmetOptions } from '../src/server/security/security-policy.js';
import { buildTestServer, type TestServer } from './harness/build-test-server.js';

const ORIGIN = 'http://shop.test';

/** Every kind of document the runtime sends, as a request against a fresh server. */
const DOCUMENTS: Record<string, (server: TestServer) => Promise<LightMyRequestResponse>> = {
  'one pass': (server) => server.app.inject({ url: '/section/items?q=et' }),
  'streamed, deferred value arriving after the shell': (server) => {
    setTimeout(() => server.services.reviews.resolve(['late']), 20);
    return server.app.inject({ url: '/section/items/7' });
  },
  'streamed, loading view first': (server) => {
    setTimeout(() => server.services.slow.resolve('slowly'), 20);
    return server.app.inject({ url: '/slow' });
  },
  'not found': (server) => server.app.inject({ url: '/section/items/missing' }),
  'no route': (server) => server.app.inject({ url: '/no/such/page' }),
  'segment error view': (server) => server.app.inject({ url: '/section/items/broken' }),
  'application error screen': (server) => server.app.inject({ url: '/crash' }),
  'form shown again (422)': (server) =>
    server.app.inject({
      method: 'POST',
      url: '/account',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      payload: `%24action=${server.actionId}&note=ab`,
    }),
};

function nonceOf(response: LightMyRequestResponse): string {
  const policy = String(response.headers['content-security-policy']);
  const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/.exec(policy)?.[1];
  if (!nonce) throw new Error(`no script nonce in ${policy}`);
  return nonce;
}

/** The opening tags of every <script> and <link rel="modulepreload"> in `html`. */
function scriptTags(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*>|<link rel="modulepreload"[^>]*>/g)].map((m) => m[0]);
}

describe('security headers on documents', () => {
  it.each(Object.keys(DOCUMENTS))('sets every header on a %s document', async (kind) => {
    const server = await buildTestServer({ security: {} });
    const response = await DOCUMENTS[kind]!(server);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const directives = String(response.headers['content-security-policy']).split(';');
    expect(directives).toEqual(
      expect.arrayContaining([
        "default-src 'self'",
        expect.stringMatching(/^script-src 'nonce-[A-Za-z0-9+/]{24}' 'strict-dynamic'$/),
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ]),
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    await server.app.close();
  });

  it.each(Object.keys(DOCUMENTS))(
    'puts the response’s nonce on every script of a %s document',
    async (kind) => {
      const server = await buildTestServer({ security: {} });
      const response = await DOCUMENTS[kind]!(server);
      const nonce = nonceOf(response);
      const tags = scriptTags(response.body);
      // Without telemetry the application-error screen has no script at all.
      const least = kind === 'application error screen' ? 0 : 4;
      expect(tags.length).toBeGreaterThanOrEqual(least);
      for (const tag of tags) expect(tag).toContain(` nonce="${nonce}"`);
      await server.app.close();
    },
  );

  it('writes React’s own streaming scripts with the nonce too', async () => {
    const server = await buildTestServer({ security: {} });
    const response = await DOCUMENTS['streamed, deferred value arriving after the shell']!(server);
    const nonce = nonceOf(response);
    expect(response.body).toContain(`<script nonce="${nonce}">$RB=[];`);
    expect(response.body).toContain(`<script nonce="${nonce}">(self.__strata=`);
    expect(response.body).toContain(`<script nonce="${nonce}" id="_R_">self.__strata_boot=`);
    await server.app.close();
  });

  it('puts the nonce on the error screen’s boot record and bundle when it reports from the browser', () => {
    const html = renderErrorScreen({
      digest: 'abc',
      reference: 'trace',
      buildId: 'build-1',
      client: { boot: { build: 'build-1' }, scripts: ['/assets/client-abc123.js'] },
      nonce: 'bm9uY2U=',
    });
    const tags = scriptTags(html);
    expect(tags).toHaveLength(2);
    for (const tag of tags) expect(tag).toContain(' nonce="bm9uY2U="');
  });

  it('uses a fresh nonce for every response, and only that one', async () => {
    const server = await buildTestServer({ security: {} });
    const first = await server.app.inject({ url: '/section/items?q=et' });
    const second = await server.app.inject({ url: '/section/items?q=et' });
    const [a, b] = [nonceOf(first), nonceOf(second)];
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64')).toHaveLength(18);
    expect(second.body).toContain(b);
    expect(second.body).not.toContain(a);
    await server.app.close();
  });

  it('writes no nonce attribute when no policy is set', async () => {
    const server = await buildTestServer();
    const response = await DOCUMENTS['streamed, deferred value arriving after the shell']!(server);
    expect(response.headers['content-security-policy']).toBeUndefined();
    expect(response.body).not.toContain('nonce=');
    await server.app.close();
  });

  it('hands a route the nonce of its own response’s policy', async () => {
    const app = Fastify();
    registerSecurityHeaders(app);
    app.get('/', (_request, reply) => ({ nonce: scriptNonceOf(reply) }));
    const [first, second] = [await app.inject({ url: '/' }), await app.inject({ url: '/' })];
    for (const response of [first, second])
      expect(nonceOf(response)).toBe(response.json<{ nonce: string }>().nonce);
    expect(nonceOf(first)).not.toBe(nonceOf(second));
    await app.close();
  });

  it('refuses to be registered twice on one app', () => {
    const app = Fastify();
    registerSecurityHeaders(app);
    expect(() => registerSecurityHeaders(app)).toThrow(/already been added|already present/i);
  });
});

describe('security headers on other answers', () => {
  it('gives payloads and JSON answers nosniff and the rest of the headers too', async () => {
    const server = await buildTestServer({ security: {} });
    const tree = '1;shop/section/items(s.q=)';
    const payload = await server.app.inject({
      url: `/section/items?q=et&_p=${payloadHash({ tree, prefetch: undefined })}`,
      headers: { 'strata-payload': '1', 'strata-tree': tree },
    });
    const refused = await server.app.inject({ method: 'POST', url: '/section/items' });
    expect(payload.statusCode).toBe(200);
    expect(refused.statusCode).toBe(405);
    for (const response of [payload, refused]) {
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    expect(payload.body).not.toContain(nonceOf(payload));
    await server.app.close();
  });

  it('takes frame-ancestors and extra sources from the application', async () => {
    const server = await buildTestServer({
      security: {
        frameAncestors: ["'self'"],
        connectSources: ['https://o1.ingest.sentry.example'],
        imageSources: ['https://images.example'],
      },
    });
    const response = await server.app.inject({ url: '/section/items?q=et' });
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain("frame-ancestors 'self'");
    expect(policy).toContain("connect-src 'self' https://o1.ingest.sentry.example");
    expect(policy).toContain("img-src 'self' data: https://images.example");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    await server.app.close();
  });
});

describe('X-Frame-Options follows frame-ancestors', () => {
  it.each([
    [[], { action: 'deny' }],
    [["'none'"], { action: 'deny' }],
    [["'self'"], { action: 'sameorigin' }],
    [['https://partner.example'], false],
    [["'self'", 'https://partner.example'], false],
  ])('frame-ancestors %j → %j', (frameAncestors, expected) => {
    expect(helmetOptions({ frameAncestors }, 'n').xFrameOptions).toEqual(expected);
  });
});
