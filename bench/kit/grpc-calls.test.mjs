import { describe, expect, it } from 'vitest';
import { grpcCallsServedIn } from './grpc-calls.mjs';

const scrape = `# HELP grpc_server_handling_seconds Time to handle a call
# TYPE grpc_server_handling_seconds histogram
grpc_server_handling_seconds_bucket{le="0.005",grpc_type="unary",grpc_service="strata.catalog.v1.CatalogService",grpc_method="ListItems",grpc_code="OK"} 90
grpc_server_handling_seconds_sum{grpc_type="unary",grpc_service="strata.catalog.v1.CatalogService",grpc_method="ListItems",grpc_code="OK"} 0.21
grpc_server_handling_seconds_count{grpc_type="unary",grpc_service="strata.catalog.v1.CatalogService",grpc_method="ListItems",grpc_code="OK"} 120
grpc_server_handling_seconds_count{grpc_type="unary",grpc_service="strata.catalog.v1.CatalogService",grpc_method="GetItem",grpc_code="NOT_FOUND"} 3
grpc_client_handling_seconds_count{grpc_service="x",grpc_method="y",grpc_code="OK"} 1000
`;

describe('grpcCallsServedIn', () => {
  it('sums the served-call counts over every method and code, and nothing else', () => {
    expect(grpcCallsServedIn(scrape)).toBe(123);
  });

  it('counts none before the first call', () => {
    expect(
      grpcCallsServedIn('# HELP process_cpu_seconds_total x\nprocess_cpu_seconds_total 1\n'),
    ).toBe(0);
  });
});
