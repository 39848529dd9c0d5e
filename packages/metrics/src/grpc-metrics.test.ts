import { status } from '@grpc/grpc-js';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { grpcCallHistogram, grpcCodeOf } from './grpc-metrics.js';

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
});
