/**
 * The render service's connections to the data service, opened once and shared by every
 * request: grpc-js for writes and the change stream, a lean HTTP/2 caller for the hot reads.
 */
import * as grpc from '@grpc/grpc-js';
import { CatalogServiceClient } from '@strata/proto';
import { createUnaryCaller, type UnaryCaller } from './wire/unary-caller.js';

/** The connections to the data service, shared by every request. */
export interface CatalogChannel {
  /** grpc-js: writes and the change stream. */
  readonly rpc: CatalogServiceClient;
  /** The hot unary reads, without grpc-js's per-call machinery (wire/unary-caller.ts). */
  readonly reads: UnaryCaller;
  close(): void;
}

/** Opens the channel to the data service. */
export function createCatalogChannel(options: { readonly address: string }): CatalogChannel {
  // The generated client: the reads, which have the hand-written decoders, never use it.
  const rpc = new CatalogServiceClient(options.address, grpc.credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.enable_retries': 0,
  });
  const reads = createUnaryCaller(options.address);
  return {
    rpc,
    reads,
    close() {
      reads.close();
      rpc.close();
    },
  };
}
