import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../envelope/envelope.js';
import { transactionSpans } from './transaction-spans.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';

/** A transaction as the render service's @sentry/node sends it (static lifecycle). */
function renderTransaction(): JsonObject {
  return {
    type: 'transaction',
    platform: 'node',
    transaction: 'GET /items',
    start_timestamp: 1795316956.725437,
    timestamp: 1795316956.7804,
    release: 'strata@1.0.0',
    environment: 'production',
    server_name: 'render-7d9f',
    sdk: { name: 'sentry.javascript.node', version: '11.12.0' },
    tags: { service: 'render' },
    contexts: {
      trace: {
        trace_id: TRACE,
        span_id: 'b7ad6b7169203331',
        parent_span_id: '00f067aa0ba902b7',
        op: 'http.server',
        status: 'ok',
        // The SDK repeats the op in `data`; an attribute key appears once.
        data: {
          'sentry.op': 'http.server',
          'sentry.origin': 'auto.http.otel.http',
          'http.response.status_code': 200,
          'url.path': '/items',
          nested: { a: 1 },
          list: ['a'],
        },
      },
    },
    spans: [
      {
        trace_id: TRACE,
        span_id: 'c1b2a3d4e5f60718',
        parent_span_id: 'b7ad6b7169203331',
        op: 'grpc.client',
        description: 'strata.catalog.v1.Catalog/ListItems',
        start_timestamp: 1795316956.73,
        timestamp: 1795316956.7615,
        status: 'internal_error',
        data: { 'rpc.system': 'grpc', ratio: 0.5, cached: false, huge: 2 ** 60 },
      },
      { span_id: 'not-hex', start_timestamp: 1, timestamp: 2 },
    ],
  };
}

describe('transactionSpans', () => {
  it('turns the transaction and its spans into OTLP spans under the service’s resource', () => {
    const result = transactionSpans(renderTransaction())!;
    expect(result.resource.attributes).toEqual([
      { key: 'service.name', value: { stringValue: 'render' } },
      { key: 'service.version', value: { stringValue: 'strata@1.0.0' } },
      { key: 'deployment.environment.name', value: { stringValue: 'production' } },
      { key: 'host.name', value: { stringValue: 'render-7d9f' } },
      { key: 'telemetry.sdk.name', value: { stringValue: 'sentry.javascript.node' } },
      { key: 'telemetry.sdk.version', value: { stringValue: '11.12.0' } },
    ]);
    const [root, child, ...rest] = result.scopeSpans[0]!.spans;
    expect(rest).toEqual([]); // the span with an invalid id is left out
    expect(root).toEqual({
      traceId: TRACE,
      spanId: 'b7ad6b7169203331',
      parentSpanId: '00f067aa0ba902b7',
      name: 'GET /items',
      kind: 2,
      startTimeUnixNano: '1795316956725437000',
      endTimeUnixNano: '1795316956780400000',
      attributes: [
        { key: 'sentry.op', value: { stringValue: 'http.server' } },
        { key: 'sentry.origin', value: { stringValue: 'auto.http.otel.http' } },
        { key: 'http.response.status_code', value: { intValue: '200' } },
        { key: 'url.path', value: { stringValue: '/items' } },
        { key: 'service', value: { stringValue: 'render' } },
      ],
      status: { code: 1 },
    });
    expect(child).toMatchObject({
      traceId: TRACE,
      parentSpanId: 'b7ad6b7169203331',
      name: 'strata.catalog.v1.Catalog/ListItems',
      kind: 3,
      startTimeUnixNano: '1795316956730000000',
      status: { code: 2, message: 'internal_error' },
    });
    expect(child!.attributes).toEqual([
      { key: 'sentry.op', value: { stringValue: 'grpc.client' } },
      { key: 'rpc.system', value: { stringValue: 'grpc' } },
      { key: 'ratio', value: { doubleValue: 0.5 } },
      { key: 'cached', value: { boolValue: false } },
      // Past 2^53 an integer is not exact: it stays a double rather than a wrong int64.
      { key: 'huge', value: { doubleValue: 2 ** 60 } },
    ]);
  });

  it('rounds float seconds to whole microseconds, written as nanoseconds', () => {
    const event = renderTransaction();
    // 0.1 + 0.2 style noise below the microsecond must not show up as stray nanoseconds.
    event.start_timestamp = 1795316956.1 + 0.2;
    // An end time as @sentry/node 11 sends it: 0.7 µs past a microsecond rounds up.
    event.timestamp = 1795316956.7256367;
    const root = transactionSpans(event)!.scopeSpans[0]!.spans[0]!;
    expect(root.startTimeUnixNano).toBe('1795316956300000000');
    expect(root.endTimeUnixNano).toBe('1795316956725637000');
  });

  it('names the browser SDK’s transactions `browser` and has no parent for a trace’s root', () => {
    const event = renderTransaction();
    event.tags = {};
    event.sdk = { name: 'sentry.javascript.browser' };
    const trace = (event.contexts as JsonObject).trace as JsonObject;
    trace.op = 'pageload';
    delete trace.parent_span_id;
    const result = transactionSpans(event)!;
    expect(result.resource.attributes[0]).toEqual({
      key: 'service.name',
      value: { stringValue: 'browser' },
    });
    const root = result.scopeSpans[0]!.spans[0]!;
    expect(root.kind).toBe(1); // a page load is INTERNAL: the document request was the server span
    expect('parentSpanId' in root).toBe(false);
  });

  it('gives nothing for an event without a valid trace or times', () => {
    expect(transactionSpans({ type: 'transaction' })).toBeUndefined();
    const badTrace = renderTransaction();
    ((badTrace.contexts as JsonObject).trace as JsonObject).trace_id = 'xyz';
    expect(transactionSpans(badTrace)).toBeUndefined();
    const noStart = renderTransaction();
    delete noStart.start_timestamp;
    expect(transactionSpans(noStart)).toBeUndefined();
  });
});
