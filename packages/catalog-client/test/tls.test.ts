/**
 * TLS to the data service: a client that trusts the service's CA is served, over an address or
 * a name; a plaintext client, or one trusting another CA, is refused; with mutual TLS the
 * service also refuses a client without a certificate it trusts.
 */
import type { RunningDataService } from '@strata/data';
import { createTestCertificates, type TestCertificates } from '@strata/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogClient } from '../src/catalog-client.js';
import type { CatalogError } from '../src/catalog-error.js';
import { createGrpcTransport, type TransportOptions } from '@strata/grpc-transport';
import { MARKER_ID, startReplica, switchableResolver } from './data-replicas.js';

let certificates: TestCertificates;
let tlsOnly: RunningDataService;
let mutual: RunningDataService;
beforeAll(async () => {
  certificates = createTestCertificates();
  const serverTls = {
    DATA_TLS_CERT: certificates.serverCertPath,
    DATA_TLS_KEY: certificates.serverKeyPath,
  };
  tlsOnly = await startReplica('127.0.0.1', 0, serverTls);
  mutual = await startReplica('127.0.0.1', 0, {
    ...serverTls,
    DATA_TLS_CA: certificates.caPath,
  });
}, 60_000);
afterAll(async () => {
  await tlsOnly?.stop();
  await mutual?.stop();
  certificates?.remove();
});

/** The marker item's title, or the error the read failed with. */
async function readMarker(target: string, options: TransportOptions) {
  const transport = createGrpcTransport(target, options);
  const client = createCatalogClient(transport, {
    deadlineMs: 2000,
    retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
  });
  try {
    const { item } = await client.getItem({ id: MARKER_ID });
    return item!.title;
  } catch (error) {
    return error as CatalogError;
  } finally {
    transport.close();
  }
}

const trusted = () => ({ ca: certificates.read(certificates.caPath) });

describe('TLS', () => {
  it('serves a client that trusts its CA, by address or by name', async () => {
    expect(await readMarker(tlsOnly.address, { tls: trusted() })).toBe('replica 127.0.0.1');
    expect(await readMarker(`localhost:${tlsOnly.port}`, { tls: trusted() })).toBe(
      'replica 127.0.0.1',
    );
    // Replica addresses found behind a name are checked against that name.
    const { resolver } = switchableResolver(['127.0.0.1']);
    expect(await readMarker(`data:${tlsOnly.port}`, { tls: trusted(), resolver })).toBe(
      'replica 127.0.0.1',
    );
  });

  it('refuses a plaintext client and one that trusts another CA', async () => {
    const plaintext = await readMarker(tlsOnly.address, {});
    // The gRPC status (UNAVAILABLE) stops at the client: callers see the kind.
    expect((plaintext as CatalogError).kind).toBe('unavailable');
    const stranger = await readMarker(tlsOnly.address, {
      tls: { ca: certificates.read(certificates.otherCaPath) },
    });
    expect((stranger as CatalogError).kind).toBe('unavailable');
    expect((stranger as CatalogError).message).toMatch(/certificate/i);
  });

  it('with a client CA, serves only clients showing a certificate it signed', async () => {
    const withCertificate = await readMarker(mutual.address, {
      tls: {
        ...trusted(),
        cert: certificates.read(certificates.clientCertPath),
        key: certificates.read(certificates.clientKeyPath),
      },
    });
    expect(withCertificate).toBe('replica 127.0.0.1');
    const without = await readMarker(mutual.address, { tls: trusted() });
    expect((without as CatalogError).kind).toBe('unavailable');
  });
});
