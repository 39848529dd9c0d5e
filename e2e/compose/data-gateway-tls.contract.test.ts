/** The data gateway's contract against the data-service image over mutual TLS. */
import * as grpc from '@grpc/grpc-js';
import {
  createCatalogClient,
  createGrpcTransport,
  type TransportOptions,
} from '@strata/catalog-client';
import { describe, expect, it } from 'vitest';
import { describeGatewayContract } from './data-gateway-contract.js';

const contract = describeGatewayContract('tls');

describe('TLS', () => {
  /** The code a read fails with for a client using `tls`, tried once. */
  async function refusedWith(tls: TransportOptions['tls']) {
    const stranger = createGrpcTransport(contract.address(), { tls });
    try {
      const client = createCatalogClient(stranger, {
        retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
      });
      return (await contract.readError(client.getItem({ id: 1 }))).code;
    } finally {
      stranger.close();
    }
  }

  it('refuses a plaintext client, one trusting another CA, and one without a certificate', async () => {
    const certificates = contract.certificates();
    const ca = certificates.read(certificates.caPath);
    expect(await refusedWith(undefined)).toBe(grpc.status.UNAVAILABLE);
    expect(await refusedWith({ ca: certificates.read(certificates.otherCaPath) })).toBe(
      grpc.status.UNAVAILABLE,
    );
    expect(await refusedWith({ ca })).toBe(grpc.status.UNAVAILABLE);
  });
});
