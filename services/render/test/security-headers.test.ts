/**
 * The render service's security headers end to end in-process: every document the example app
 * sends carries the policy with its own nonce on every script, every other answer (JSON API,
 * payloads, health, refusals) carries nosniff and the rest, the CSP_* variables shape the
 * policy, and a value that is not a CSP source stops the service at start.
 */
import { ConfigError } from '@strata/config';
import { payloadHash } from '@strata/web';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRenderConfig } from '../src/index.js';
import { startRender, type RenderUnderTest } from './harness/start-render.js';

let stack: RenderUnderTest;
beforeAll(async () => {
  stack = await startRender();
});
afterAll(() => stack.stop());

function nonceOf(response: LightMyRequestResponse): string {
  const policy = String(response.headers['content-security-policy']);
  const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)' 'strict-dynamic'/.exec(policy)?.[1];
  if (!nonce) throw new Error(`no script nonce in ${policy}`);
  return nonce;
}

function expectBaseHeaders(response: LightMyRequestResponse): void {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(response.headers['x-frame-options']).toBe('DENY');
  const policy = String(response.headers['content-security-policy']);
  for (const directive of [
    "default-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ])
    expect(policy.split(';')).toContain(directive);
}

describe('documents', () => {
  it.each([
    ['/', 200, 2],
    ['/items?category=cat-2', 200, 2],
    ['/items/5', 200, 2],
    ['/slow', 200, 2],
    ['/account', 200, 2],
    ['/bench/items/3', 200, 2],
    ['/items/999999', 404, 2],
    ['/no/such/page', 404, 2],
    // Without telemetry the application-error screen has no script at all.
    ['/errors/server', 500, 0],
  ])('%s carries the policy, and its nonce is on every script', async (url, status, least) => {
    const response = await stack.app.inject({ url });
    expect(response.statusCode).toBe(status);
    expectBaseHeaders(response);
    const nonce = nonceOf(response);
    const scripts = [...response.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts.length).toBeGreaterThanOrEqual(least);
    for (const tag of scripts) expect(tag).toContain(` nonce="${nonce}"`);
  });

  it('gives two responses for the same page different nonces', async () => {
    const [first, second] = [
      await stack.app.inject({ url: '/items/5' }),
      await stack.app.inject({ url: '/items/5' }),
    ];
    expect(nonceOf(first)).not.toBe(nonceOf(second));
    expect(second.body).not.toContain(nonceOf(first));
  });
});

describe('every other answer', () => {
  it.each([
    ['JSON API', { url: '/api/categories' }, 200],
    ['JSON API refusal', { url: '/api/items/999999' }, 404],
    ['health', { url: '/healthz' }, 200],
    ['favicon', { url: '/favicon.ico' }, 204],
    ['unknown method', { method: 'PUT' as const, url: '/items' }, 404],
    ['POST without an action', { method: 'POST' as const, url: '/items' }, 405],
  ])('%s: nosniff and the rest of the headers', async (_name, request, status) => {
    const response = await stack.app.inject(request);
    expect(response.statusCode).toBe(status);
    expectBaseHeaders(response);
  });

  it('payload: the headers, and no nonce in what is sent', async () => {
    const tree = '1;shop/items(s.category=&s.page=&s.q=)';
    const response = await stack.app.inject({
      url: `/items/5?_p=${payloadHash({ tree, prefetch: undefined })}`,
      headers: { 'strata-payload': '1', 'strata-tree': tree },
    });
    expect(response.statusCode).toBe(200);
    expectBaseHeaders(response);
    expect(response.body).not.toContain(nonceOf(response));
  });
});

describe('configuration', () => {
  it('takes frame-ancestors and extra connect and image sources from CSP_*', async () => {
    const configured = await startRender({
      CSP_FRAME_ANCESTORS: 'self,https://partner.example',
      CSP_CONNECT_SRC: 'https://o1.ingest.sentry.example',
      CSP_IMG_SRC: 'https://images.example,https:',
    });
    try {
      const response = await configured.app.inject({ url: '/' });
      const policy = String(response.headers['content-security-policy']).split(';');
      expect(policy).toContain("frame-ancestors 'self' https://partner.example");
      expect(policy).toContain("connect-src 'self' https://o1.ingest.sentry.example");
      expect(policy).toContain("img-src 'self' data: https://images.example https:");
      // X-Frame-Options cannot name a partner: left to frame-ancestors.
      expect(response.headers['x-frame-options']).toBeUndefined();
    } finally {
      await configured.stop();
    }
  });

  it.each([
    ['CSP_CONNECT_SRC', "https://a.example; script-src 'unsafe-inline'"],
    ['CSP_CONNECT_SRC', "'unsafe-inline'"],
    ['CSP_CONNECT_SRC', 'none'],
    ['CSP_IMG_SRC', 'https://a.example https://b.example'],
    ['CSP_FRAME_ANCESTORS', 'none,self'],
    ['CSP_FRAME_ANCESTORS', "'nonce-abc'"],
  ])('refuses %s=%s at start', (name, value) => {
    expect(() => loadRenderConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadRenderConfig({ [name]: value })).toThrow(name);
  });

  it('normalises keywords and defaults frame-ancestors to none', () => {
    expect(loadRenderConfig({}).CSP_FRAME_ANCESTORS).toEqual(["'none'"]);
    expect(loadRenderConfig({ CSP_FRAME_ANCESTORS: 'SELF' }).CSP_FRAME_ANCESTORS).toEqual([
      "'self'",
    ]);
    expect(loadRenderConfig({ CSP_FRAME_ANCESTORS: "'none'" }).CSP_FRAME_ANCESTORS).toEqual([
      "'none'",
    ]);
  });
});
