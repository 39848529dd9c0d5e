/**
 * The relay's own request-rate limits over real HTTP: per client address (before the body is
 * read; behind RELAY_TRUST_PROXY the address comes from X-Forwarded-For) and per project key
 * (as soon as the envelope header names it), answered the way Sentry answers so SDKs back off.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { updateRateLimits } from '../src/rate-limits/rate-limits.js';
import { startFakeUpstream, type FakeUpstream } from './harness/fake-upstream.js';
import { startRelay, type RelayUnderTest } from './harness/relay-under-test.js';

const DSN = 'https://limited0key@o1.ingest.example.com/51';
const OTHER_DSN = 'https://other0key@o1.ingest.example.com/52';
let upstream: FakeUpstream;
let relay: RelayUnderTest;

async function setup(env: Record<string, string>): Promise<void> {
  upstream = await startFakeUpstream();
  relay = await startRelay(upstream, {
    RELAY_DSNS: `${DSN},${OTHER_DSN}`,
    RELAY_TRUST_PROXY: 'true',
    ...env,
  });
}

afterEach(async () => {
  await relay.stop();
  await upstream.close();
  if (upstream.problems.length > 0)
    throw new Error(`upstream problems: ${upstream.problems.join('; ')}`);
});

const envelope = (dsn: string) => `{"dsn":"${dsn}"}\n{"type":"event"}\n{"message":"hi"}`;

function post(address: string, body: string, path = '/monitoring') {
  return fetch(`${relay.url}${path}`, {
    method: 'POST',
    body,
    headers: { 'x-forwarded-for': address },
  });
}

async function statuses(address: string, body: string, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await post(address, body);
    await response.arrayBuffer();
    out.push(response.status);
  }
  return out;
}

/** Checks Sentry's 429 shape and returns the seconds it asks the SDK to wait. */
async function expectSentry429(response: Response, code: string, reason: string) {
  expect(response.status).toBe(429);
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  expect(response.headers.get('x-sentry-error')).toBe(body.error.message);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  const header = response.headers.get('x-sentry-rate-limits');
  expect(header).toBe(`${retryAfter}::key:${reason}`);
  // The header reads, by the rate-limiting spec the SDKs follow, as "send nothing for a while".
  expect(updateRateLimits({}, { status: 429, rateLimitsHeader: header }, 0)).toEqual({
    all: retryAfter * 1000,
  });
}

describe('per client address', () => {
  it('answers 429 with Retry-After and X-Sentry-Rate-Limits past the limit', async () => {
    await setup({ RELAY_RATE_LIMIT_PER_ADDRESS: '3', RELAY_RATE_LIMIT_WINDOW: '1s' });
    expect(await statuses('203.0.113.7', envelope(DSN), 3)).toEqual([200, 200, 200]);
    await expectSentry429(
      await post('203.0.113.7', envelope(DSN)),
      'RELAY_CLIENT_RATE_LIMITED',
      'relay_client_address',
    );
    expect(await statuses('203.0.113.8', envelope(DSN), 1)).toEqual([200]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await statuses('203.0.113.7', envelope(DSN), 1)).toEqual([200]);
    await upstream.waitFor(5);
  });

  it('refuses before reading the body, and counts the ingest endpoint too', async () => {
    await setup({ RELAY_RATE_LIMIT_PER_ADDRESS: '1' });
    expect(await statuses('203.0.113.9', envelope(DSN), 1)).toEqual([200]);
    const malformed = await post('203.0.113.9', 'not an envelope', '/api/51/envelope/');
    expect(malformed.status).toBe(429);
  });

  it('counts an IPv6 /64 as one client', async () => {
    await setup({ RELAY_RATE_LIMIT_PER_ADDRESS: '2' });
    expect(await statuses('2001:db8:1:2::1', envelope(DSN), 2)).toEqual([200, 200]);
    expect(await statuses('2001:db8:1:2::ffff', envelope(DSN), 1)).toEqual([429]);
    expect(await statuses('2001:db8:1:3::1', envelope(DSN), 1)).toEqual([200]);
  });
});

describe('per project key', () => {
  it('answers 429 for the key past its limit, whatever the address, and only for that key', async () => {
    await setup({ RELAY_RATE_LIMIT_PER_KEY: '3' });
    const first = await Promise.all(
      ['198.51.100.1', '198.51.100.2', '198.51.100.3'].map((address) =>
        post(address, envelope(DSN)),
      ),
    );
    expect(first.map((response) => response.status)).toEqual([200, 200, 200]);
    await expectSentry429(
      await post('198.51.100.4', envelope(DSN)),
      'RELAY_KEY_RATE_LIMITED',
      'relay_project_key',
    );
    expect(await statuses('198.51.100.4', envelope(OTHER_DSN), 1)).toEqual([200]);
  });

  it('shares the count between the tunnel and the ingest endpoint', async () => {
    await setup({ RELAY_RATE_LIMIT_PER_KEY: '1' });
    expect(await statuses('198.51.100.5', envelope(DSN), 1)).toEqual([200]);
    const ingest = await post(
      '198.51.100.6',
      '{}\n{"type":"event"}\n{"message":"hi"}',
      '/api/51/envelope/?sentry_key=limited0key',
    );
    expect(ingest.status).toBe(429);
  });

  it('does not count requests for DSNs it refuses', async () => {
    await setup({ RELAY_RATE_LIMIT_PER_KEY: '1' });
    const unknown = envelope('https://limited0key@o1.ingest.example.com/99');
    expect(await statuses('198.51.100.7', unknown, 3)).toEqual([403, 403, 403]);
    expect(await statuses('198.51.100.7', envelope(DSN), 1)).toEqual([200]);
  });
});
