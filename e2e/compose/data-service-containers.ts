/**
 * The data-service image on PostgreSQL in containers of their own network, as the contract tests
 * run it: plaintext, or serving mutual TLS with the test CA's certificates mounted.
 */
import type { TransportOptions } from '@strata/catalog-client';
import { createTestCertificates, type TestCertificates } from '@strata/testing';
import { GenericContainer, Network, Wait } from 'testcontainers';
import { serviceImage } from './images.js';

/** Where the service's certificates are mounted in its container. */
const TLS_DIR = '/run/tls';

export interface DataServiceContainers {
  /** host:port of the data service, a name the test certificate carries. */
  readonly address: string;
  /** The test CA and certificates (TLS mode). */
  readonly certificates: TestCertificates | undefined;
  /** What a client presents and trusts (TLS mode). */
  readonly clientTls: TransportOptions['tls'];
  /** The PostgreSQL container's id (to stop and start it). */
  readonly postgresId: string;
  stop(): Promise<void>;
}

export async function startDataServiceOnPostgres(
  mode: 'plaintext' | 'tls',
): Promise<DataServiceContainers> {
  const image = await serviceImage('data');
  const certificates = mode === 'tls' ? createTestCertificates() : undefined;
  const network = await new Network().start();
  const postgres = await new GenericContainer('postgres:15-bookworm')
    .withNetwork(network)
    .withNetworkAliases('postgres')
    .withEnvironment({
      POSTGRES_USER: 'strata',
      POSTGRES_PASSWORD: 'contract',
      POSTGRES_DB: 'strata',
    })
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  let container = new GenericContainer(image)
    .withNetwork(network)
    .withEnvironment({
      DATABASE_URL: 'postgres://strata:contract@postgres:5432/strata',
      PAGE_TOKEN_SECRET: 'contract-test-page-token-secret',
      LOG_LEVEL: 'warn',
    })
    .withExposedPorts(50051)
    // The image's own HEALTHCHECK (gRPC health, over TLS when it serves TLS) decides readiness.
    .withWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(120_000);
  let clientTls: TransportOptions['tls'];
  if (certificates) {
    container = container
      .withCopyFilesToContainer([
        { source: certificates.serverCertPath, target: `${TLS_DIR}/server.pem`, mode: 0o444 },
        { source: certificates.serverKeyPath, target: `${TLS_DIR}/server.key`, mode: 0o444 },
        { source: certificates.caPath, target: `${TLS_DIR}/ca.pem`, mode: 0o444 },
      ])
      .withEnvironment({
        DATA_TLS_CERT: `${TLS_DIR}/server.pem`,
        DATA_TLS_KEY: `${TLS_DIR}/server.key`,
        DATA_TLS_CA: `${TLS_DIR}/ca.pem`,
      });
    clientTls = {
      ca: certificates.read(certificates.caPath),
      cert: certificates.read(certificates.clientCertPath),
      key: certificates.read(certificates.clientKeyPath),
    };
  }
  const data = await container.start();
  return {
    // localhost: a name the test certificate carries (the mapped port is on this host).
    address: `localhost:${data.getMappedPort(50051)}`,
    certificates,
    clientTls,
    postgresId: postgres.getId(),
    async stop() {
      await data.stop();
      await postgres.stop();
      await network.stop();
      certificates?.remove();
    },
  };
}
