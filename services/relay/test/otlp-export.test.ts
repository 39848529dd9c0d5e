/**
 * Traces to an OpenTelemetry collector: a relay with RELAY_OTLP_TRACES_URL sends the spans of
 * every transaction it accepted to a recording OTLP/HTTP endpoint (a stand-in for the external
 * collector), still forwarding them upstream; with RELAY_OTLP_ONLY the transactions go to the
 * collector only while errors still go upstream. Filtered transactions are not exported, a
 * collector that hangs never delays an ingest answer, and what waits is sent on shutdown.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './harness/fake-upstream.js';
import { startRelay, type RelayUnderTest } from './harness/relay-under-test.js';

const DSN = 'https://otlpkey@o1.ingest.example.com/21';
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

interface Collected {
  readonly headers: IncomingHttpHeaders;
  readonly body: {
    resourceSpans: {
      resource: { attributes: { key: string; value: { stringValue?: string } }[] };
      scopeSpans: { spans: { traceId: string; name: string; parentSpanId?: string }[] }[];
    }[];
  };
}

let collector: Server;
let collectorUrl: string;
const collected: Collected[] = [];
/** Status codes to answer with, in order, before 200; `hang` answers nothing at all. */
const answers: Array<number | 'hang'> = [];
let upstream: FakeUpstream;
const relays: RelayUnderTest[] = [];

beforeAll(async () => {
  collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = answers.shift() ?? 200;
      if (status === 'hang') return;
      if (status === 200)
        collected.push({
          headers: request.headers,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Collected['body'],
        });
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces`;
  upstream = await startFakeUpstream();
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((relay) => relay.stop()));
  collected.splice(0);
  answers.splice(0);
  upstream.received.splice(0);
});

afterAll(async () => {
  await upstream?.close();
  collector?.closeAllConnections();
  await new Promise((resolve) => collector?.close(resolve));
});

function transactionEvent(name: string, spanId: string) {
  const now = Date.now() / 1000;
  const event = {
    type: 'transaction',
    platform: 'node',
    transaction: name,
    start_timestamp: now - 0.05,
    timestamp: now,
    tags: { service: 'render' },
    contexts: { trace: { trace_id: TRACE, span_id: spanId, op: 'http.server', status: 'ok' } },
    spans: [
      {
        trace_id: TRACE,
        span_id: `${spanId.slice(0, 15)}f`,
        parent_span_id: spanId,
        op: 'grpc.client',
        description: 'ListItems',
        start_timestamp: now - 0.04,
        timestamp: now - 0.01,
      },
    ],
  };
  return JSON.stringify(event);
}

function transactionEnvelope(name: string, spanId: string): string {
  return `{"dsn":"${DSN}"}\n{"type":"transaction"}\n${transactionEvent(name, spanId)}`;
}

const errorItem = `{"type":"event"}\n{"message":"boom"}`;
const errorEnvelope = `{"event_id":"${'e'.repeat(32)}","dsn":"${DSN}"}\n${errorItem}`;

async function post(relay: RelayUnderTest, body: string): Promise<number> {
  const response = await fetch(`${relay.url}/monitoring`, { method: 'POST', body });
  await response.arrayBuffer();
  return response.status;
}

const spanNames = () =>
  collected.flatMap((request) =>
    request.body.resourceSpans.flatMap((resource) =>
      resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.name)),
    ),
  );

async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

it('exports accepted transactions as spans, with the configured headers, and forwards them too', async () => {
  const relay = await startRelay(upstream, {
    RELAY_DSNS: DSN,
    RELAY_OTLP_TRACES_URL: collectorUrl,
    RELAY_OTLP_HEADERS: 'authorization=Bearer collector-key,x-team=web',
  });
  relays.push(relay);
  expect(await post(relay, transactionEnvelope('GET /items', 'a1a2a3a4a5a6a7a8'))).toBe(200);
  // The not-found transaction filter drops this one: it is exported nowhere.
  expect(await post(relay, transactionEnvelope('GET /404', 'b1b2b3b4b5b6b7b8'))).toBe(200);
  await eventually(() => expect(spanNames()).toEqual(['GET /items', 'ListItems']));
  const [request] = collected;
  expect(request!.headers.authorization).toBe('Bearer collector-key');
  expect(request!.headers['x-team']).toBe('web');
  const spans = request!.body.resourceSpans[0]!.scopeSpans[0]!.spans;
  expect(spans.map((span) => span.traceId)).toEqual([TRACE, TRACE]);
  expect(spans[1]!.parentSpanId).toBe('a1a2a3a4a5a6a7a8');
  await upstream.waitFor(1);
  expect(upstream.received.map((r) => r.envelope?.items[0]?.header.type)).toEqual(['transaction']);
  const metrics = await (await fetch(`${relay.url}/metrics`)).text();
  expect(metrics).toMatch(/^relay_otlp_spans_exported_total 2$/m);
});

it('with RELAY_OTLP_ONLY sends transactions to the collector only, errors still upstream', async () => {
  const relay = await startRelay(upstream, {
    RELAY_DSNS: DSN,
    RELAY_OTLP_TRACES_URL: collectorUrl,
    RELAY_OTLP_ONLY: 'true',
  });
  relays.push(relay);
  expect(await post(relay, transactionEnvelope('GET /items/1', 'c1c2c3c4c5c6c7c8'))).toBe(200);
  expect(await post(relay, errorEnvelope)).toBe(200);
  // One envelope with both: the error goes on alone.
  const mixed = `{"dsn":"${DSN}"}\n${errorItem}\n{"type":"transaction"}\n${transactionEvent('GET /items/2', 'e1e2e3e4e5e6e7e8')}`;
  expect(await post(relay, mixed)).toBe(200);
  await eventually(() =>
    expect(spanNames().sort()).toEqual(['GET /items/1', 'GET /items/2', 'ListItems', 'ListItems']),
  );
  await upstream.waitFor(2);
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(upstream.received.map((r) => r.envelope?.items.map((item) => item.header.type))).toEqual([
    ['event'],
    ['event'],
  ]);
});

it('tries again when the collector fails for a moment', async () => {
  const relay = await startRelay(upstream, {
    RELAY_DSNS: DSN,
    RELAY_OTLP_TRACES_URL: collectorUrl,
  });
  relays.push(relay);
  answers.push(503);
  expect(await post(relay, transactionEnvelope('GET /', 'd1d2d3d4d5d6d7d8'))).toBe(200);
  await eventually(() => expect(spanNames()).toEqual(['GET /', 'ListItems']));
});

it('answers at once while the collector hangs, and gives up on it within the shutdown deadline', async () => {
  const relay = await startRelay(upstream, {
    RELAY_DSNS: DSN,
    RELAY_OTLP_TRACES_URL: collectorUrl,
    RELAY_OTLP_TIMEOUT: '30s',
  });
  relays.push(relay);
  answers.push('hang');
  expect(await post(relay, transactionEnvelope('GET /a', 'f1f2f3f4f5f6f7f8'))).toBe(200);
  // The first batch leaves after a second and hangs; the ingest answers stay immediate.
  await new Promise((resolve) => setTimeout(resolve, 1200));
  for (const spanId of ['a1b2c3d4e5f60718', 'a2b2c3d4e5f60718', 'a3b2c3d4e5f60718']) {
    const started = performance.now();
    expect(await post(relay, transactionEnvelope('GET /b', spanId))).toBe(200);
    expect(performance.now() - started).toBeLessThan(500);
  }
  const metrics = await (await fetch(`${relay.url}/metrics`)).text();
  const started = performance.now();
  relays.pop();
  await relay.stop(); // a 2 s deadline
  expect(performance.now() - started).toBeLessThan(3000);
  expect(metrics).toMatch(/^relay_otlp_spans_exported_total 0$/m);
  expect(collected).toEqual([]);
});

it('sends the spans that wait when the relay shuts down', async () => {
  const relay = await startRelay(upstream, {
    RELAY_DSNS: DSN,
    RELAY_OTLP_TRACES_URL: collectorUrl,
  });
  relays.push(relay);
  expect(await post(relay, transactionEnvelope('GET /last', 'b1c2d3e4f5a6b7c8'))).toBe(200);
  // Well before the batch's one-second interval.
  relays.pop();
  await relay.stop();
  expect(spanNames()).toEqual(['GET /last', 'ListItems']);
});
