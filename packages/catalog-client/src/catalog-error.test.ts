/**
 * The gRPC status stops at the catalogue client: each code becomes a kind its callers act on.
 */
import { status } from '@grpc/grpc-js';
import { GrpcCallError } from '@strata/grpc-transport';
import { describe, expect, it } from 'vitest';
import { CatalogError, catalogErrorOf } from './catalog-error.js';

const failed = (code: status) => catalogErrorOf(new GrpcCallError({ code, details: 'why' }));

describe('a failed catalogue call', () => {
  it.each([
    [status.NOT_FOUND, 'not-found'],
    [status.INVALID_ARGUMENT, 'invalid'],
    [status.ALREADY_EXISTS, 'exists'],
    [status.ABORTED, 'conflict'],
    [status.UNAVAILABLE, 'unavailable'],
    [status.DEADLINE_EXCEEDED, 'unavailable'],
    [status.INTERNAL, 'failed'],
  ])(
    'with gRPC code %i is a CatalogError of kind %s, the status kept as its cause',
    (code, kind) => {
      const error = failed(code) as CatalogError;
      expect(error).toBeInstanceOf(CatalogError);
      expect(error).toMatchObject({ kind, message: 'why', fieldErrors: {}, reason: undefined });
      expect((error.cause as GrpcCallError).code).toBe(code);
    },
  );

  it('that is no gRPC status (an abort) is left as it is', () => {
    const abort = new DOMException('stopped', 'AbortError');
    expect(catalogErrorOf(abort)).toBe(abort);
  });
});
