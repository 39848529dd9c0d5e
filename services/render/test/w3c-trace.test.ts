/**
 * With telemetry on, a request that carries only a W3C `traceparent` (an OpenTelemetry client or
 * proxy) is continued in that trace: the render transaction has its trace id and parent span,
 * and the data calls made for it carry the same trace (and the caller's tracestate) on. An invalid traceparent starts a new
 * trace; a request with `sentry-trace` too is continued in Sentry's.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEnvelopeRecorder, type EnvelopeRecorder } from './harness/envelope-recorder.js';
import { startRender, type RenderUnderTest } from './harness/start-render.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

let recorder: EnvelopeRecorder;
let stack: RenderUnderTest;
let port: number;

beforeAll(async () => {
  recorder = await startEnvelopeRecorder();
  stack = await startRender(
    { SENTRY_DSN: 'http://test0key@127.0.0.1:9/1', RELAY_URL: recorder.url },
    { telemetry: true },
  );
  port = Number(new URL(await stack.app.listen({ port: 0, host: '127.0.0.1' })).port);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  await recorder?.close();
});

/**
 * GET `path` over a bare socket, with exactly `headers`: the SDK in this process would add its
 * own trace headers to a request made with fetch or node:http.
 */
function get(path: string, headers: Record<string, string>): Promise<number> {
  const lines = [`GET ${path} HTTP/1.1`, `host: 127.0.0.1:${port}`, 'connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(Buffer.concat(chunks).toString().split(' ')[1])));
  });
}

/** Requests `path` and returns the transaction the service recorded for it and its data calls. */
async function transactionFor(path: string, headers: Record<string, string>) {
  const calls = stack.callMetadata.length;
  expect(await get(path, headers)).toBe(200);
  const dataCalls = stack.callMetadata.slice(calls);
  await expect.poll(() => recorder.transactions.length, { timeout: 10_000 }).toBeGreaterThan(0);
  expect(recorder.transactions).toHaveLength(1);
  return { transaction: recorder.transactions.shift()!, dataCalls };
}

describe('an incoming W3C traceparent', () => {
  it('is continued: same trace id, its span as parent, and the data calls in that trace', async () => {
    const { transaction, dataCalls } = await transactionFor('/items/5', {
      traceparent: `00-${TRACE}-${SPAN}-01`,
      tracestate: 'congo=t61rcWkgMzE',
    });
    expect(transaction).toMatchObject({
      transaction: 'GET /items/:id',
      traceId: TRACE,
      parentSpanId: SPAN,
    });
    expect(dataCalls.length).toBeGreaterThan(0);
    for (const metadata of dataCalls) {
      expect(metadata['traceparent']).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
      expect(metadata['sentry-trace']).toMatch(new RegExp(`^${TRACE}-[0-9a-f]{16}-1$`));
      expect(metadata['tracestate']).toBe('congo=t61rcWkgMzE');
    }
  });

  it('keeps the caller’s sampling decision: an unsampled trace goes on to the data calls unrecorded', async () => {
    const calls = stack.callMetadata.length;
    expect(await get('/items/5', { traceparent: `00-${TRACE}-${SPAN}-00` })).toBe(200);
    const dataCalls = stack.callMetadata.slice(calls);
    expect(dataCalls.length).toBeGreaterThan(0);
    for (const metadata of dataCalls)
      expect(metadata['traceparent']).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-00$`));
  });

  it.each([
    `ff-${TRACE}-${SPAN}-01`,
    `00-${'0'.repeat(32)}-${SPAN}-01`,
    `00-${TRACE}-${SPAN.slice(2)}-01`,
  ])('starts a new trace for the invalid traceparent %s', async (traceparent) => {
    const { transaction } = await transactionFor('/items/5', { traceparent });
    expect(transaction.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(transaction.traceId).not.toBe(TRACE);
    expect(transaction.traceId).not.toBe('0'.repeat(32));
    expect(transaction.parentSpanId).toBeUndefined();
  });

  it('gives way to sentry-trace when both are sent', async () => {
    const sentryTrace = `${'a'.repeat(32)}-${'b'.repeat(16)}-1`;
    const { transaction, dataCalls } = await transactionFor('/items/5', {
      traceparent: `00-${TRACE}-${SPAN}-01`,
      tracestate: 'congo=t61rcWkgMzE',
      'sentry-trace': sentryTrace,
    });
    expect(transaction).toMatchObject({ traceId: 'a'.repeat(32), parentSpanId: 'b'.repeat(16) });
    // The W3C caller's vendor entries belong to its trace, not the one continued.
    for (const metadata of dataCalls) expect(metadata['tracestate']).toBeUndefined();
  });
});
