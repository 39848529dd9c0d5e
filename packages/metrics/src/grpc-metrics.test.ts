import { status } from '@grpc/grpc-js';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { grpcCallHistogram, grpcCodeOf, grpcServerHistogram, grpcTypeOf } from './grpc-metrics.js';

describe('grpcCallHistogram', () => {
  it('labels each call with its service, method and status name', async () => {
    const registry = new Registry();
    const observe = grpcCallHistogram(registry, 'client');
    observe('strata.catalog.v1.CatalogService/GetItem', status.OK, 0.002);
    observe(
      'strata.catalog.v1.CatalogService/GetItem',
      grpcCodeOf({ code: status.NOT_FOUND }),
      0.001,
    );
    observe('strata.catalog.v1.CatalogService/ListItems', grpcCodeOf(new Error('no code')), 0.5);
    const text = await registry.metrics();
    const count = (method: string, code: string) =>
      new RegExp(
        `grpc_client_handling_seconds_count\\{grpc_service="strata.catalog.v1.CatalogService",grpc_method="${method}",grpc_code="${code}"\\} 1`,
      );
    expect(text).toMatch(count('GetItem', 'OK'));
    expect(text).toMatch(count('GetItem', 'NOT_FOUND'));
    expect(text).toMatch(count('ListItems', 'UNKNOWN'));
  });

  it('counts calls with the same method and code in one series, other codes in their own', async () => {
    const registry = new Registry();
    const observe = grpcCallHistogram(registry, 'client');
    observe('strata.catalog.v1.CatalogService/ListItems', status.OK, 0.002);
    observe('strata.catalog.v1.CatalogService/ListItems', status.OK, 0.004);
    observe('strata.catalog.v1.CatalogService/ListItems', status.UNAVAILABLE, 0.001);
    const text = await registry.metrics();
    const counts = text
      .split('\n')
      .filter((line) => line.startsWith('grpc_client_handling_seconds_count'));
    expect(counts).toEqual([
      'grpc_client_handling_seconds_count{grpc_service="strata.catalog.v1.CatalogService",grpc_method="ListItems",grpc_code="OK"} 2',
      'grpc_client_handling_seconds_count{grpc_service="strata.catalog.v1.CatalogService",grpc_method="ListItems",grpc_code="UNAVAILABLE"} 1',
    ]);
    expect(text).toMatch(/^grpc_client_handling_seconds_sum\{[^}]*grpc_code="OK"\} 0.006$/m);
  });
});

describe('grpcServerHistogram', () => {
  it('labels each served call with its type, service, method and status name', async () => {
    const registry = new Registry();
    const observe = grpcServerHistogram(registry);
    // grpc-js names a handler by its path, leading slash included.
    observe('unary', '/strata.catalog.v1.CatalogService/GetItem', status.OK, 0.002);
    observe('unary', '/strata.catalog.v1.CatalogService/GetItem', status.OK, 0.004);
    observe('unary', 'strata.catalog.v1.CatalogService/GetItem', status.NOT_FOUND, 0.001);
    observe('server_stream', '/strata.catalog.v1.CatalogService/WatchChanges', status.CANCELLED, 3);
    const text = await registry.metrics();
    const count = (type: string, method: string, code: string, n: number) =>
      new RegExp(
        `^grpc_server_handling_seconds_count\\{grpc_type="${type}",grpc_service="strata.catalog.v1.CatalogService",grpc_method="${method}",grpc_code="${code}"\\} ${n}$`,
        'm',
      );
    expect(text).toMatch(count('unary', 'GetItem', 'OK', 2));
    expect(text).toMatch(count('unary', 'GetItem', 'NOT_FOUND', 1));
    expect(text).toMatch(count('server_stream', 'WatchChanges', 'CANCELLED', 1));
    expect(text).toMatch(
      /^grpc_server_handling_seconds_sum\{grpc_type="unary",[^}]*grpc_code="OK"\} 0.006$/m,
    );
  });

  it('names a code it does not know by its number', async () => {
    const registry = new Registry();
    grpcServerHistogram(registry)('unary', '/a.B/C', 99, 0.1);
    expect(await registry.metrics()).toContain('grpc_code="99"');
  });
});

describe('grpcTypeOf', () => {
  it('maps the streaming flags to grpc-ecosystem’s grpc_type values', () => {
    expect(grpcTypeOf(false, false)).toBe('unary');
    expect(grpcTypeOf(false, true)).toBe('server_stream');
    expect(grpcTypeOf(true, false)).toBe('client_stream');
    expect(grpcTypeOf(true, true)).toBe('bidi_stream');
  });
});
