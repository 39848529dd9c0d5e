/**
 * End to end over real HTTP: SDK fixtures through the ingest endpoint and the tunnel, into a
 * fake upstream. Every test ends with the upstream's problem list empty. How the relay answers
 * requests that are wrong, and the auth forms and body encodings it takes, are in
 * ingest-requests.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { BROWSER_DSN, NODE_DSN, sdkFixture, sdkFixtures } from './fixtures.js';
import { relayPerTest } from './harness/relay-per-test.js';

const current = relayPerTest({ RELAY_DSNS: `${NODE_DSN},${BROWSER_DSN}` }, { startEachTest: true });
const { post } = current;

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
    await current.upstream.waitFor(fixtures.length);
    const bodies = current.upstream.received.map((r) => r.body.toString('base64')).sort();
    expect(bodies).toEqual(fixtures.map((f) => f.body.toString('base64')).sort());
    expect(current.upstream.received[0]?.url).toMatch(
      /^\/api\/42\/envelope\/\?sentry_version=7&sentry_key=node0public0key/,
    );
  });

  it('keeps the binary attachment intact', async () => {
    const fixture = sdkFixture('node-04-event');
    expect((await post(fixture.url, fixture.body)).status).toBe(200);
    await current.upstream.waitFor(1);
    const attachment = current.upstream.received[0]?.envelope?.items.find(
      (item) => item.type === 'attachment',
    );
    expect([...(attachment?.payload ?? [])]).toEqual([0, 10, 13, 10, 255, 10]);
  });

  it('drops the NEXT_REDIRECT control-flow error and answers 200 with its id', async () => {
    const fixture = sdkFixture('node-05-event');
    const response = await post(fixture.url, fixture.body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: fixture.header.event_id });
    await current.relay.relay.flushClientReports();
    await current.upstream.waitFor(1);
    const report = JSON.parse(
      Buffer.from(current.upstream.received[0]!.envelope!.items[0]!.payload).toString(),
    );
    expect(report.filtered_events).toEqual([
      { reason: 'redirect-error', category: 'error', quantity: 1 },
    ]);
  });

  it('drops the GET /404 server transaction (streamed spans) with its child spans', async () => {
    const fixture = sdkFixture('node-00-span');
    expect((await post(fixture.url, fixture.body)).status).toBe(200);
    await current.relay.relay.flushClientReports();
    await current.upstream.waitFor(1);
    const [received] = current.upstream.received;
    const types = received?.envelope?.items.map((item) => item.type);
    // The container held the /404 segment and its child; the /catalogue segment survives, if present.
    expect(types?.every((type) => type === 'client_report' || type === 'span')).toBe(true);
    const spans = current.upstream.received
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
  await current.relay.relay.flushClientReports();
  await current.upstream.waitFor(1);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(current.upstream.received[0]?.url).toMatch(
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
    const bodies = current.upstream.received.map((r) => r.body.toString('base64'));
    expect(bodies).toContain(fixture.body.toString('base64'));
  });

  it.each([
    ['browser-01-event', 'script-error', 'error'],
    ['browser-04-event', 'resize-observer', 'error'],
    ['browser-08-span', 'not-found-transaction', 'span'],
    ['browser-10-span', 'incomplete-navigation', 'span'],
  ])('drops %s as %s and reports it', async (name, reason, category) => {
    await sendThroughTunnel(name);
    expect(current.upstream.received).toHaveLength(1);
    const [report] = current.upstream.received;
    expect(report?.envelope?.items.map((item) => item.type)).toEqual(['client_report']);
    const payload = JSON.parse(Buffer.from(report!.envelope!.items[0]!.payload).toString());
    expect(payload.filtered_events).toEqual([expect.objectContaining({ reason, category })]);
  });

  it('answers a CORS preflight the way Sentry ingest does', async () => {
    const response = await fetch(`${current.relay.url}/monitoring`, {
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
