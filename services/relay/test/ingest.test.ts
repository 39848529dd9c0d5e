/**
 * End to end over real HTTP: SDK fixtures through the ingest endpoint and the tunnel, into a
 * fake upstream. Every test ends with the upstream's problem list empty.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { sdkFixture, sdkFixtures } from './fixtures.js';
import { startFakeUpstream, type FakeUpstream } from './harness/fake-upstream.js';
import { startRelay, type RelayUnderTest } from './harness/relay-under-test.js';

const NODE_DSN = 'http://node0public0key@127.0.0.1:9/42';
const browserDsn = String(sdkFixture('browser-00-session').header.dsn);

let upstream: FakeUpstream;
let relay: RelayUnderTest;

beforeEach(async () => {
  upstream = await startFakeUpstream();
  relay = await startRelay(upstream, { RELAY_DSNS: `${NODE_DSN},${browserDsn}` });
});

afterEach(async () => {
  await relay.stop();
  await upstream.close();
  if (upstream.problems.length > 0)
    throw new Error(`upstream problems: ${upstream.problems.join('; ')}`);
});

function post(path: string, body: Uint8Array | string, headers: Record<string, string> = {}) {
  return fetch(`${relay.url}${path}`, { method: 'POST', body, headers });
}

const tunnelled = (dsn: string) => `{"dsn":"${dsn}"}\n{"type":"event"}\n{"message":"hi"}`;
const ingestPath = (query = 'sentry_version=7&sentry_key=node0public0key') =>
  `/api/42/envelope/?${query}`;

describe('ingest endpoint with @sentry/node fixtures', () => {
  it('forwards every node envelope byte for byte when nothing needs changing', async () => {
    // 00 holds the GET /404 transaction and 05 the NEXT_REDIRECT error: both are filtered.
    const fixtures = sdkFixtures('node-').filter((f) => !/node-0[05]/.test(f.name));
    for (const fixture of fixtures) {
      const response = await post(fixture.url, fixture.body);
      expect({ name: fixture.name, status: response.status }).toEqual({
        name: fixture.name,
        status: 200,
      });
    }
    await upstream.waitFor(fixtures.length);
    const bodies = upstream.received.map((r) => r.body.toString('base64')).sort();
    expect(bodies).toEqual(fixtures.map((f) => f.body.toString('base64')).sort());
    expect(upstream.received[0]?.url).toMatch(
      /^\/api\/42\/envelope\/\?sentry_version=7&sentry_key=node0public0key/,
    );
  });

  it('keeps the binary attachment intact', async () => {
    const fixture = sdkFixture('node-04-event');
    expect((await post(fixture.url, fixture.body)).status).toBe(200);
    await upstream.waitFor(1);
    const attachment = upstream.received[0]?.envelope?.items.find(
      (item) => item.type === 'attachment',
    );
    expect([...(attachment?.payload ?? [])]).toEqual([0, 10, 13, 10, 255, 10]);
  });

  it('drops the NEXT_REDIRECT control-flow error and answers 200 with its id', async () => {
    const fixture = sdkFixture('node-05-event');
    const response = await post(fixture.url, fixture.body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: fixture.header.event_id });
    await relay.relay.flushClientReports();
    await upstream.waitFor(1);
    const report = JSON.parse(
      Buffer.from(upstream.received[0]!.envelope!.items[0]!.payload).toString(),
    );
    expect(report.filtered_events).toEqual([
      { reason: 'redirect-error', category: 'error', quantity: 1 },
    ]);
  });

  it('drops the GET /404 server transaction (streamed spans) with its child spans', async () => {
    const fixture = sdkFixture('node-00-span');
    expect((await post(fixture.url, fixture.body)).status).toBe(200);
    await relay.relay.flushClientReports();
    await upstream.waitFor(1);
    const [received] = upstream.received;
    const types = received?.envelope?.items.map((item) => item.type);
    // The container held the /404 segment and its child; the /catalogue segment survives, if present.
    expect(types?.every((type) => type === 'client_report' || type === 'span')).toBe(true);
    const spans = upstream.received
      .flatMap((r) => r.envelope?.items ?? [])
      .filter((i) => i.type === 'span');
    for (const item of spans)
      expect(Buffer.from(item.payload).toString()).not.toContain('"GET /404"');
  });
});

async function sendThroughTunnel(name: string) {
  const fixture = sdkFixture(name);
  const response = await post('/monitoring', fixture.body, {
    'content-type': 'text/plain;charset=UTF-8',
  });
  expect(response.status).toBe(200);
  await relay.relay.flushClientReports();
  await upstream.waitFor(1);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(upstream.received[0]?.url).toMatch(
    /^\/api\/7\/envelope\/\?sentry_version=7&sentry_key=browser0public0key/,
  );
  return fixture;
}

describe('tunnel with @sentry/browser fixtures', () => {
  it.each([
    'browser-00-session',
    'browser-03-event', // checkout failed
    'browser-07-span', // a pageload cut short by a navigation: pageloads are kept
    'browser-11-client_report',
  ])('forwards %s unchanged', async (name) => {
    const fixture = await sendThroughTunnel(name);
    const bodies = upstream.received.map((r) => r.body.toString('base64'));
    expect(bodies).toContain(fixture.body.toString('base64'));
  });

  it.each([
    ['browser-01-event', 'script-error', 'error'],
    ['browser-04-event', 'resize-observer', 'error'],
    ['browser-08-span', 'not-found-transaction', 'span'],
    ['browser-10-span', 'incomplete-navigation', 'span'],
  ])('drops %s as %s and reports it', async (name, reason, category) => {
    await sendThroughTunnel(name);
    expect(upstream.received).toHaveLength(1);
    const [report] = upstream.received;
    expect(report?.envelope?.items.map((item) => item.type)).toEqual(['client_report']);
    const payload = JSON.parse(Buffer.from(report!.envelope!.items[0]!.payload).toString());
    expect(payload.filtered_events).toEqual([expect.objectContaining({ reason, category })]);
  });

  it('answers a CORS preflight the way Sentry ingest does', async () => {
    const response = await fetch(`${relay.url}/monitoring`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toContain('x-sentry-auth');
    expect(response.headers.get('access-control-max-age')).toBe('3600');
  });

  it('exposes the rate-limit headers on actual responses', async () => {
    const fixture = sdkFixture('browser-00-session');
    const response = await post('/monitoring', fixture.body, { origin: 'https://shop.example' });
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'x-sentry-error, x-sentry-rate-limits, retry-after',
    );
  });
});

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
    expect(upstream.received).toEqual([]);
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
    await upstream.waitFor(1);
    expect(upstream.received[0]?.url).toContain('sentry_key=node0public0key');
  });

  it('accepts the key from the envelope dsn on the ingest endpoint', async () => {
    const body = `{"dsn":"${NODE_DSN}"}\n{"type":"event"}\n{"message":"auth"}`;
    expect((await post('/api/42/envelope/', body)).status).toBe(200);
  });

  it('refuses an origin outside RELAY_ALLOWED_ORIGINS and allows a listed one', async () => {
    await relay.stop();
    relay = await startRelay(upstream, {
      RELAY_DSNS: browserDsn,
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
    await upstream.waitFor(1);
    expect(upstream.received[0]?.body.equals(event)).toBe(true);
  });

  it('refuses a zip bomb with 413 without inflating it', async () => {
    await relay.stop();
    relay = await startRelay(upstream, {
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
    await relay.stop();
    relay = await startRelay(upstream, { RELAY_DSNS: NODE_DSN, RELAY_MAX_BODY_BYTES: '1000' });
    const response = await post(ingestPath(), Buffer.alloc(5000, 0x61));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'RELAY_BODY_TOO_LARGE',
    );
  });
});
