/**
 * Delivery over real HTTP against the fake upstream: the 64-in-flight cap, upstream rate limits
 * (kept, mirrored to clients, applied before spooling), retries on 5xx and network errors,
 * 413 as final, client reports of what the relay dropped, and the ops endpoints.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './harness/fake-upstream.js';
import { startRelay, type RelayUnderTest } from './harness/relay-under-test.js';

const DSN = 'https://abc123@o1.ingest.example.com/42';
let upstream: FakeUpstream;
let relay: RelayUnderTest;

async function setup(env: Record<string, string> = {}) {
  upstream = await startFakeUpstream();
  relay = await startRelay(upstream, { RELAY_DSNS: DSN, ...env });
}

afterEach(async () => {
  await relay.stop();
  await upstream.close();
  if (upstream.problems.length > 0)
    throw new Error(`upstream problems: ${upstream.problems.join('; ')}`);
});

const eventEnvelope = (id: number) =>
  `{"event_id":"${String(id).padStart(32, '0')}","dsn":"${DSN}"}\n{"type":"event"}\n{"message":"event ${id}"}`;
const transactionEnvelope = `{"dsn":"${DSN}"}\n{"type":"transaction"}\n{"type":"transaction","transaction":"/catalogue"}`;
const clientReportEnvelope = `{"dsn":"${DSN}"}\n{"type":"client_report"}\n{"timestamp":1,"discarded_events":[]}`;

function send(body: string) {
  return fetch(`${relay.url}/monitoring`, { method: 'POST', body });
}

/**
 * Resolves once the relay has handled `count` upstream answers with `status` (recorded in the
 * same turn as the limits they carry are learned). Polled: on a loaded machine the answer can
 * take long to get back after the upstream has seen the request.
 */
async function upstreamAnswered(status: number, count = 1): Promise<void> {
  await expect
    .poll(async () => (await fetch(`${relay.url}/metrics`)).text(), {
      timeout: 10_000,
      interval: 20,
    })
    .toMatch(new RegExp(`relay_upstream_requests_total\\{status="${status}"\\} ${count}\\n`));
}

function reportsOf(fake: FakeUpstream): Array<Record<string, unknown>> {
  return fake.received
    .flatMap((r) => r.envelope?.items ?? [])
    .filter((item) => item.type === 'client_report')
    .map((item) => JSON.parse(Buffer.from(item.payload).toString()) as Record<string, unknown>);
}

describe('send buffer', () => {
  it('keeps at most 64 envelopes in flight and delivers the rest when capacity frees', async () => {
    await setup();
    upstream.hold();
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) => send(eventEnvelope(i))),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    await upstream.waitFor(64);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(upstream.received).toHaveLength(64);
    expect(upstream.maxConcurrent()).toBe(64);
    upstream.release();
    await upstream.waitFor(100);
    expect(upstream.maxConcurrent()).toBeLessThanOrEqual(64);
    const ids = upstream.received.map((r) => r.envelope?.header.event_id);
    expect(new Set(ids).size).toBe(100);
  });
});

describe('upstream rate limits', () => {
  it('drops limited items before spooling, answers 429 with the limits, and reports them', async () => {
    await setup();
    upstream.script({
      status: 429,
      headers: { 'x-sentry-rate-limits': '60:error:key', 'retry-after': '60' },
    });
    expect((await send(eventEnvelope(1))).status).toBe(200);
    await upstreamAnswered(429);

    const limited = await send(eventEnvelope(2));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-sentry-rate-limits')).toMatch(/^(59|60):error:key$/);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);

    const transaction = await send(transactionEnvelope);
    expect(transaction.status).toBe(200);
    expect(transaction.headers.get('x-sentry-rate-limits')).toMatch(/:error:key$/);
    await upstream.waitFor(2);
    expect(upstream.received[1]?.envelope?.items[0]?.type).toBe('transaction');

    await relay.relay.flushClientReports();
    await upstream.waitFor(3);
    expect(reportsOf(upstream)).toEqual([
      expect.objectContaining({
        rate_limited_events: [{ reason: 'ratelimit_backoff', category: 'error', quantity: 1 }],
      }),
    ]);
  });

  it('uses 60 s for a bare 429 and still lets client reports through only without an all limit', async () => {
    await setup();
    upstream.script({ status: 429 });
    await send(eventEnvelope(1));
    await upstreamAnswered(429);
    const response = await send(clientReportEnvelope);
    expect(response.status).toBe(429);
    expect(response.headers.get('x-sentry-rate-limits')).toMatch(/^(59|60)::key$/);
    // Dropping a client report is never itself reported.
    await relay.relay.flushClientReports();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstream.received).toHaveLength(1);
  });
});

describe('retries', () => {
  it('retries 5xx with backoff until it succeeds', async () => {
    await setup();
    upstream.script({ status: 503 }, { status: 502 });
    await send(eventEnvelope(7));
    await upstream.waitFor(3);
    expect(upstream.received.map((r) => r.envelope?.header.event_id)).toEqual(
      Array(3).fill(String(7).padStart(32, '0')),
    );
  });

  it('treats 413 as final and reports the loss as send_error', async () => {
    await setup();
    upstream.script({ status: 413 });
    await send(eventEnvelope(8));
    await upstream.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(upstream.received).toHaveLength(1);
    await relay.relay.flushClientReports();
    await upstream.waitFor(2);
    expect(reportsOf(upstream)[0]?.discarded_events).toEqual([
      { reason: 'send_error', category: 'error', quantity: 1 },
    ]);
  });

  it('gives up after the configured attempts and reports network_error', async () => {
    const dead = await startFakeUpstream();
    const deadUrl = dead.url;
    await dead.close();
    upstream = await startFakeUpstream();
    relay = await startRelay(upstream, {
      RELAY_DSNS: DSN,
      RELAY_UPSTREAM: deadUrl,
      RELAY_RETRY_ATTEMPTS: '3',
    });
    await send(eventEnvelope(9));
    let dropped = '';
    // As long as the other delivery tests wait: a loaded CI machine stretches the back-off.
    await expect
      .poll(async () => (dropped = await (await fetch(`${relay.url}/metrics`)).text()), {
        timeout: 10_000,
        interval: 100,
      })
      .toContain('upstream-unreachable');
    expect(dropped).toMatch(
      /relay_items_dropped_total\{reason="upstream-unreachable",category="error"\} 1/,
    );
    expect(dropped).toMatch(/relay_upstream_requests_total\{status="network-error"\} 3/);
    const ready = await fetch(`${relay.url}/readyz`);
    expect(ready.status).toBe(503);
  });
});

describe('ops endpoints', () => {
  it('serves health, readiness, metrics and the explain endpoint', async () => {
    await setup({ RELAY_DEBUG_ENDPOINT: 'true' });
    expect(await (await fetch(`${relay.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${relay.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      checks: { config: { ok: true }, spool: { ok: true } },
    });

    const scriptError = `{"dsn":"${DSN}"}\n{"type":"event"}\n{"exception":{"values":[{"type":"Error","value":"Script error."}]}}\n{"type":"attachment","length":3}\nabc`;
    const explain = await fetch(`${relay.url}/debug/explain`, {
      method: 'POST',
      body: scriptError,
    });
    expect(await explain.json()).toMatchObject({
      dsn: '42:abc123',
      wouldForward: false,
      items: [
        { type: 'event', action: 'drop', reason: 'filtered:script-error' },
        { type: 'attachment', action: 'drop', reason: 'filtered:script-error' },
      ],
    });
    expect(upstream.received).toEqual([]);

    await send(eventEnvelope(3));
    await send(scriptError);
    await upstreamAnswered(200); // the upstream has it, and the relay its answer
    const metrics = await (await fetch(`${relay.url}/metrics`)).text();
    expect(metrics).toMatch(/relay_envelopes_accepted_total\{dsn="42:abc123"\} 1/);
    expect(metrics).toMatch(
      /relay_items_dropped_total\{reason="filtered:script-error",category="error"\} 1/,
    );
    expect(metrics).toMatch(
      /relay_items_dropped_total\{reason="filtered:script-error",category="attachment"\} 1/,
    );
    expect(metrics).toMatch(/relay_upstream_requests_total\{status="200"\} 1/);
    expect(metrics).toMatch(/relay_spool_bytes \d+/);
    expect(metrics).toMatch(/relay_upstream_duration_seconds_bucket/);
    // The standard request histogram, by route pattern; probes are not counted.
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/monitoring",status_code="200"\} 2/,
    );
    expect(metrics).not.toMatch(/route="\/(healthz|readyz|metrics)"/);
    expect(metrics).not.toContain('abc123@');
  });
});
