import { describe, expect, it } from 'vitest';
import {
  grpcCallSpan,
  incomingTrace,
  traceHeadersFromMetadata,
  traceMetadata,
} from './grpc-trace-headers.js';
import { sentryTraceFromTraceparent } from './w3c-traceparent.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const SPAN = 'b7ad6b7169203331';

describe('traceHeadersFromMetadata', () => {
  const from = (entries: Record<string, unknown[]>) =>
    traceHeadersFromMetadata((key) => entries[key] ?? []);

  it('reads the first sentry-trace and baggage values', () => {
    expect(from({ 'sentry-trace': ['a-b-1', 'other'], baggage: ['sentry-trace_id=a'] })).toEqual({
      sentryTrace: 'a-b-1',
      baggage: 'sentry-trace_id=a',
    });
  });

  it('reads a W3C traceparent too, and writes back what it read', () => {
    const traceparent = `00-${TRACE}-${SPAN}-01`;
    const headers = from({ traceparent: [traceparent], 'sentry-trace': [`${TRACE}-${SPAN}-1`] });
    expect(headers).toEqual({ traceparent, sentryTrace: `${TRACE}-${SPAN}-1` });
    expect(traceMetadata(headers)).toEqual({
      traceparent,
      'sentry-trace': `${TRACE}-${SPAN}-1`,
    });
  });

  it('ignores missing, empty and binary values', () => {
    expect(from({})).toEqual({});
    expect(from({ 'sentry-trace': [''], baggage: [Buffer.from('x')] })).toEqual({});
  });
});

describe('grpcCallSpan', () => {
  it('follows the rpc conventions', () => {
    expect(grpcCallSpan('client', 'strata.catalog.v1.CatalogService/GetItem')).toEqual({
      name: 'strata.catalog.v1.CatalogService/GetItem',
      op: 'grpc.client',
      attributes: {
        'rpc.system': 'grpc',
        'rpc.service': 'strata.catalog.v1.CatalogService',
        'rpc.method': 'GetItem',
      },
    });
  });
});

describe('a caller that sends only traceparent', () => {
  it('is continued in its own trace, sampled as its flags say', () => {
    expect(incomingTrace({ traceparent: `00-${TRACE}-${SPAN}-01` })).toEqual({
      sentryTrace: `${TRACE}-${SPAN}-1`,
      baggage: undefined,
    });
    expect(sentryTraceFromTraceparent(`00-${TRACE}-${SPAN}-00`)).toBe(`${TRACE}-${SPAN}-0`);
  });

  it('keeps Sentry’s own header first, and refuses a malformed or all-zero traceparent', () => {
    expect(
      incomingTrace({
        sentryTrace: `${TRACE}-${SPAN}`,
        traceparent: `00-${'1'.repeat(32)}-${SPAN}-01`,
      }),
    ).toEqual({ sentryTrace: `${TRACE}-${SPAN}`, baggage: undefined });
    for (const bad of [
      `01-${TRACE}-${SPAN}-01`,
      `00-${'0'.repeat(32)}-${SPAN}-01`,
      `00-${TRACE}-${'0'.repeat(16)}-01`,
      `00-${TRACE.toUpperCase()}-${SPAN}-01`,
      `00-${TRACE}-${SPAN}`,
    ])
      expect(sentryTraceFromTraceparent(bad)).toBeUndefined();
  });
});
