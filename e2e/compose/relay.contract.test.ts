/**
 * Contract: the relay image built from services/relay/Dockerfile against a recording upstream
 * on the host (the Docker bridge's gateway address). What reaches Sentry's ingest API, what
 * the filters keep back, how upstream rate limits come back to clients, and that acknowledged
 * envelopes survive a restart of the container (the spool lives in its volume).
 */
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceImage } from './images.js';
import { errorEnvelope, startRecorder, type Recorder } from './recorder.js';

const DSN = 'http://relay0contract0key@relay.invalid/42';
// Rate limits are per DSN: the durability test uses its own.
const DURABLE_DSN = 'http://relay0durable0key@relay.invalid/43';

let recorder: Recorder;
let relay: StartedTestContainer;

const relayUrl = (path: string) => `http://${relay.getHost()}:${relay.getMappedPort(3100)}${path}`;

function post(path: string, body: string): Promise<Response> {
  return fetch(relayUrl(path), { method: 'POST', body });
}

const ingest = `/api/42/envelope/?sentry_key=relay0contract0key`;

beforeAll(async () => {
  const image = await serviceImage('relay');
  recorder = await startRecorder();
  relay = await new GenericContainer(image)
    .withEnvironment({
      RELAY_DSNS: `${DSN},${DURABLE_DSN}`,
      RELAY_UPSTREAM: recorder.address,
      RELAY_RETRY_BASE: '100ms',
      RELAY_RETRY_MAX: '500ms',
      RELAY_RETRY_ATTEMPTS: '1000',
      RELAY_CLIENT_REPORT_INTERVAL: '1s',
      RELAY_LOG_LEVEL: 'warn',
    })
    .withExposedPorts(3100)
    .withWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(120_000)
    .start();
}, 600_000);

afterAll(async () => {
  await relay?.stop();
  await recorder?.close();
}, 120_000);

describe('relay container → upstream', () => {
  it('forwards an ingested envelope to the Sentry ingest API of the configured upstream', async () => {
    const { eventId, body } = errorEnvelope(DSN, 'relay contract: forwarded');
    const response = await post(ingest, body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: eventId });
    await recorder.waitFor((requests) => requests.some((r) => r.body.includes(eventId)));
    const forwarded = recorder.requests.find((r) => r.body.includes(eventId))!;
    expect(forwarded.method).toBe('POST');
    expect(forwarded.url).toMatch(
      /^\/api\/42\/envelope\/\?sentry_version=7&sentry_key=relay0contract0key/,
    );
    expect(forwarded.headers['content-type']).toBe('application/x-sentry-envelope');
  });

  it('the tunnel path takes the DSN from the envelope; unknown DSNs are refused', async () => {
    const { eventId, body } = errorEnvelope(DSN, 'relay contract: tunnel');
    expect((await post('/monitoring', body)).status).toBe(200);
    await recorder.waitFor((requests) => requests.some((r) => r.body.includes(eventId)));
    const foreign = await post('/monitoring', errorEnvelope('http://other@x.invalid/1', 'x').body);
    expect(foreign.status).toBe(403);
    expect((await foreign.json()) as unknown).toMatchObject({
      error: { code: 'RELAY_DSN_NOT_ALLOWED' },
    });
  });

  it('drops noise before it goes upstream and reports the drop as a client report', async () => {
    const noise = errorEnvelope(DSN, 'Script error.', undefined);
    expect((await post(ingest, noise.body)).status).toBe(200);
    const marker = errorEnvelope(DSN, 'relay contract: after the noise');
    expect((await post(ingest, marker.body)).status).toBe(200);
    await recorder.waitFor((requests) => requests.some((r) => r.body.includes(marker.eventId)));
    await recorder.waitFor(
      (requests) => requests.some((r) => r.body.includes('"filtered_events"')),
      15_000,
    );
    expect(recorder.requests.some((r) => r.body.includes(noise.eventId))).toBe(false);
  });

  it('honours an upstream rate limit and tells the client', async () => {
    recorder.answerWith({
      status: 429,
      headers: { 'x-sentry-rate-limits': '30:error:key', 'retry-after': '30' },
    });
    try {
      const first = errorEnvelope(DSN, 'relay contract: limited upstream');
      expect((await post(ingest, first.body)).status).toBe(200);
      await recorder.waitFor((requests) => requests.some((r) => r.body.includes(first.eventId)));
      // Give the relay a moment to record the limit from the 429.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const refused = await post(ingest, errorEnvelope(DSN, 'relay contract: refused').body);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(20);
      expect(refused.headers.get('x-sentry-rate-limits')).toMatch(/^\d+:error:key/);
    } finally {
      recorder.answerWith(undefined);
    }
  });
});

describe('durability', () => {
  it('keeps acknowledged envelopes across a container restart and delivers them afterwards', async () => {
    // Upstream is failing: acknowledged envelopes wait in the spool, retried with backoff.
    recorder.answerWith({ status: 503 });
    const sent = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const { eventId, body } = errorEnvelope(DURABLE_DSN, `relay contract: durable ${index}`);
        const response = await post('/monitoring', body);
        return { eventId, status: response.status };
      }),
    );
    expect(sent.every((entry) => entry.status === 200)).toBe(true);
    // Wait until the relay has tried (and failed) to deliver them, so the restart interrupts
    // a real backlog.
    await recorder.waitFor((requests) =>
      requests.some((r) => r.status === 503 && r.url.startsWith('/api/43/')),
    );
    await relay.restart({ timeout: 10_000 });
    await waitHealthy();
    recorder.answerWith(undefined);
    await recorder.waitFor(
      (requests) =>
        sent.every(({ eventId }) =>
          requests.some(
            (r) => r.status === 200 && r.body.includes(eventId) && r.url.startsWith('/api/43/'),
          ),
        ),
      60_000,
    );
  });
});

async function waitHealthy(): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const ok = await fetch(relayUrl('/healthz')).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('relay not healthy after restart');
}
