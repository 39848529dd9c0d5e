/**
 * A data transport whose unary calls are reported to `onCall` (the method's path, the encoded
 * request and the metadata) before they are sent, so tests can see what the render service asked for.
 */
import type { GrpcTransport } from '@strata/catalog-client';

export function observeReads(
  transport: GrpcTransport,
  onCall: (path: string, request: Uint8Array, metadata: Readonly<Record<string, string>>) => void,
): GrpcTransport {
  return {
    ...transport,
    unary(path, request, options) {
      onCall(path, request, options.metadata ?? {});
      return transport.unary(path, request, options);
    },
  };
}
