/**
 * Requests to the ingest endpoint and the tunnel over real HTTP, into a fake upstream: what is
 * wrong with a request and how the relay says so, the auth forms and origins it accepts, and the
 * body encodings and size limits. Every test ends with the upstream's problem list empty.
 */
import { describe, expect, it } from 'vitest';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { BROWSER_DSN, NODE_DSN, sdkFixture } from './fixtures.js';
import { relayPerTest } from './harness/relay-per-test.js';

const current = relayPerTest({ RELAY_DSNS: `${NODE_DSN},${BROWSER_DSN}` }, { startEachTest: true });
const { post } = current;

const tunnelled = (dsn: string) => `{"dsn":"${dsn}"}\n{"type":"event"}\n{"message":"hi"}`;
const ingestPath = (query = 'sentry_version=7&sentry_key=node0public0key') =>
  `/api/42/envelope/?${query}`;

describe('request errors', () => {
  const event =
    '{"event_id":"0123456789abcdef0123456789abcdef"}\n{"type":"event"}\n{"message":"hi"}';

  it('answers an unknown route with 404 and a JSON error', async () => {
    const response = await post('/api/42/store/', event);
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: { code: string } };
    expect(body.error.code).toBe('RELAY_NOT_FOUND');
  });

  it.each<[string, () => Promise<Response>, number, string]>([
    [
      'unknown DSN on the tunnel',
      () => post('/monitoring', tunnelled('https://other@example.com/9999')),
      403,
      'RELAY_DSN_NOT_ALLOWED',
    ],
    [
      'unparsable DSN on the tunnel',
      () => post('/monitoring', tunnelled('not-a-valid-dsn')),
      403,
      'RELAY_DSN_INVALID',
    ],
    ['tunnel envelope without dsn', () => post('/monitoring', event), 400, 'RELAY_DSN_MISSING'],
    [
      'unknown key on ingest',
      () => post(ingestPath('sentry_key=nope'), event),
      403,
      'RELAY_DSN_NOT_ALLOWED',
    ],
    ['no auth on ingest', () => post(ingestPath('x=1'), event), 403, 'RELAY_AUTH_MISSING'],
    [
      'conflicting auth',
      () => post(ingestPath(), event, { 'x-sentry-auth': 'Sentry sentry_key=other' }),
      403,
      'RELAY_AUTH_CONFLICT',
    ],
    [
      'malformed envelope',
      () => post(ingestPath(), 'not valid envelope data{{{'),
      400,
      'RELAY_ENVELOPE_MALFORMED',
    ],
    ['empty body', () => post(ingestPath(), ''), 400, 'RELAY_ENVELOPE_MALFORMED'],
    [
      'bad length',
      () => post(ingestPath(), '{}\n{"type":"attachment","length":99}\nabc'),
      400,
      'RELAY_ENVELOPE_MALFORMED',
    ],
    [
      'unsupported encoding',
      () => post(ingestPath(), event, { 'content-encoding': 'compress' }),
      415,
      'RELAY_ENCODING_UNSUPPORTED',
    ],
    [
      'corrupt gzip',
      () => post(ingestPath(), 'not gzip at all', { 'content-encoding': 'gzip' }),
      400,
      'RELAY_ENCODING_INVALID',
    ],
    [
      'oversized event item',
      () =>
        post(ingestPath(), `{}\n{"type":"event"}\n{"message":"${'x'.repeat(1024 * 1024 + 1)}"}`),
      413,
      'RELAY_ITEM_TOO_LARGE',
    ],
  ])('%s → %s %s', async (_name, send, status, code) => {
    const response = await send();
    expect(response.status).toBe(status);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe(code);
    expect(body.error.message.length).toBeGreaterThan(5);
    expect(response.headers.get('x-sentry-error')).toBe(body.error.message);
    expect(current.upstream.received).toEqual([]);
  });

  it('names the malformed part of an envelope', async () => {
    const response = await post(ingestPath(), '{}\n{"type":"attachment","length":3}\nabcX');
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(
      /item 0 payload is not followed by a newline \(at byte \d+\)/,
    );
  });
});

describe('auth forms and origins', () => {
  const event = '{}\n{"type":"event"}\n{"message":"auth"}';

  it.each([
    [
      'X-Sentry-Auth header',
      { 'x-sentry-auth': 'Sentry sentry_key=node0public0key, sentry_version=7' },
    ],
    ['Authorization header', { authorization: 'Sentry sentry_key=node0public0key' }],
  ])('accepts the key from the %s', async (_name, headers) => {
    const response = await post('/api/42/envelope/', event, headers);
    expect(response.status).toBe(200);
    await current.upstream.waitFor(1);
    expect(current.upstream.received[0]?.url).toContain('sentry_key=node0public0key');
  });

  it('accepts the key from the envelope dsn on the ingest endpoint', async () => {
    const body = `{"dsn":"${NODE_DSN}"}\n{"type":"event"}\n{"message":"auth"}`;
    expect((await post('/api/42/envelope/', body)).status).toBe(200);
  });

  it('refuses an origin outside RELAY_ALLOWED_ORIGINS and allows a listed one', async () => {
    await current.restart({
      RELAY_DSNS: BROWSER_DSN,
      RELAY_ALLOWED_ORIGINS: 'https://shop.example',
    });
    const body = sdkFixture('browser-00-session').body;
    const denied = await post('/monitoring', body, { origin: 'https://evil.example' });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { error: { code: string } }).error.code).toBe(
      'RELAY_ORIGIN_NOT_ALLOWED',
    );
    const allowed = await post('/monitoring', body, { origin: 'https://shop.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
  });
});

describe('body encodings and limits', () => {
  const event = Buffer.from(
    '{"event_id":"0123456789abcdef0123456789abcdef"}\n{"type":"event"}\n{"message":"encoded"}',
  );

  it.each<[string, Buffer, string]>([
    ['gzip', gzipSync(event), 'gzip'],
    ['deflate (zlib)', deflateSync(event), 'deflate'],
    ['deflate (raw)', deflateRawSync(event), 'deflate'],
    ['br', brotliCompressSync(event), 'br'],
    ['empty Content-Encoding', event, ''],
    ['utf-8 Content-Encoding', event, 'UTF-8'],
  ])('accepts %s', async (_name, body, encoding) => {
    const response = await post(ingestPath(), body, { 'content-encoding': encoding });
    expect(response.status).toBe(200);
    await current.upstream.waitFor(1);
    expect(current.upstream.received[0]?.body.equals(event)).toBe(true);
  });

  it('refuses a zip bomb with 413 without inflating it', async () => {
    await current.restart({
      RELAY_DSNS: NODE_DSN,
      RELAY_MAX_ENVELOPE_BYTES: String(1024 * 1024),
    });
    const bomb = gzipSync(Buffer.concat([event, Buffer.alloc(50 * 1024 * 1024, 0x20)]));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const response = await post(ingestPath(), bomb, { 'content-encoding': 'gzip' });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'RELAY_ENVELOPE_TOO_LARGE',
    );
  });

  it('refuses a body over the compressed limit with 413', async () => {
    await current.restart({ RELAY_DSNS: NODE_DSN, RELAY_MAX_BODY_BYTES: '1000' });
    const response = await post(ingestPath(), Buffer.alloc(5000, 0x61));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'RELAY_BODY_TOO_LARGE',
    );
  });
});
