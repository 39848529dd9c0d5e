import { describe, expect, it } from 'vitest';
import { grpcCallSpan, traceHeadersFromMetadata } from './grpc-trace-headers.js';

describe('traceHeadersFromMetadata', () => {
  const from = (entries: Record<string, unknown[]>) =>
    traceHeadersFromMetadata((key) => entries[key] ?? []);

  it('reads the first sentry-trace and baggage values', () => {
    expect(from({ 'sentry-trace': ['a-b-1', 'other'], baggage: ['sentry-trace_id=a'] })).toEqual({
      sentryTrace: 'a-b-1',
      baggage: 'sentry-trace_id=a',
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
