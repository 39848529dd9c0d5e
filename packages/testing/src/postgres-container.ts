/**
 * A real PostgreSQL (postgres:15-bookworm) in a container for tests, with one fresh database per
 * caller so suites never see each other's rows. Needs a Docker engine; set
 * TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 where the engine runs on this host.
 */
import { PostgreSqlContainer, type StartedPostgreSqlContainer } from '@testcontainers/postgresql';
import { Client } from 'pg';

/** The image every PostgreSQL test runs against (the one docker-compose.yml uses). */
export const POSTGRES_IMAGE = 'postgres:15-bookworm';

/** A started server that hands out empty databases. */
export interface TestPostgres {
  /** Creates an empty database and returns its connection URL. */
  createDatabase(): Promise<string>;
  /** Stops and removes the container. */
  stop(): Promise<void>;
}

/** Starts a PostgreSQL container (fails with a clear message when no engine is reachable). */
export async function startTestPostgres(): Promise<TestPostgres> {
  let container: StartedPostgreSqlContainer;
  try {
    container = await new PostgreSqlContainer(POSTGRES_IMAGE).start();
  } catch (error) {
    throw new Error(
      `Could not start ${POSTGRES_IMAGE} with testcontainers. Is a Docker engine running? ` +
        'Start one (see README.md) and retry.',
      { cause: error },
    );
  }
  let counter = 0;
  return {
    async createDatabase() {
      counter += 1;
      const name = `test_${process.pid}_${counter}`;
      const admin = new Client({ connectionString: container.getConnectionUri() });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      const url = new URL(container.getConnectionUri());
      url.pathname = `/${name}`;
      return url.toString();
    },
    async stop() {
      await container.stop();
    },
  };
}
