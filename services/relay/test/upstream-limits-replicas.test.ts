/**
 * Upstream rate limits across replicas: replicas do not share what the upstream told one of
 * them, but each learns it from the first answer it gets, so the upstream sees at most one
 * request per replica while its limit lasts, and every replica then refuses the limited
 * category itself with the upstream's remaining time.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './harness/fake-upstream.js';
import { startRelay, type RelayUnderTest } from './harness/relay-under-test.js';

const DSN = 'https://limitkey@o1.ingest.example.com/11';
const REPLICAS = 3;

let upstream: FakeUpstream;
let relays: RelayUnderTest[];

beforeAll(async () => {
  upstream = await startFakeUpstream();
  relays = await Promise.all(
    Array.from({ length: REPLICAS }, () => startRelay(upstream, { RELAY_DSNS: DSN })),
  );
});

afterAll(async () => {
  await Promise.all((relays ?? []).map((relay) => relay.stop()));
  await upstream?.close();
});

const errorEnvelope = (n: number) =>
  `{"event_id":"${String(n).padStart(32, '0')}","dsn":"${DSN}"}\n{"type":"event"}\n{"message":"limited ${n}"}`;

async function send(relay: RelayUnderTest, n: number): Promise<Response> {
  const response = await fetch(`${relay.url}/monitoring`, {
    method: 'POST',
    body: errorEnvelope(n),
  });
  await response.arrayBuffer();
  return response;
}

it('costs the upstream one limited answer per replica, then every replica refuses itself', async () => {
  upstream.script(
    ...relays.map(() => ({
      status: 429,
      headers: { 'x-sentry-rate-limits': '60:error:key', 'retry-after': '60' },
    })),
  );
  // One envelope through each replica: each meets the limit once.
  for (const [index, relay] of relays.entries()) {
    expect((await send(relay, index)).status).toBe(200);
    await upstream.waitFor(index + 1);
    // The answer is read before the next replica sends.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const later = await Promise.all(
    Array.from({ length: 30 }, (_, n) => send(relays[n % REPLICAS]!, 100 + n)),
  );
  for (const response of later) {
    expect(response.status).toBe(429);
    expect(response.headers.get('x-sentry-rate-limits')).toMatch(/^(5\d|60):error:key$/);
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(upstream.received).toHaveLength(REPLICAS);
});
