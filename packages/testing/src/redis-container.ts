/**
 * A real Redis (redis:7-bookworm) in a container for the tests of what shares one (the render
 * service's segment cache, the relay's request limits). The host port can
 * be fixed, so a test can stop Redis and start a fresh one where clients expect it. Needs a
 * Docker engine (TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 where it runs on this host).
 */
import { createServer } from 'node:net';
import { GenericContainer, Wait, type StartedTestContainer } from 'testcontainers';

/** The image every Redis test runs against. */
export const REDIS_IMAGE = 'redis:7-bookworm';

/** A started Redis. */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** Stops and removes the container at once (no graceful shutdown: an outage). */
  kill(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts Redis, on `hostPort` when given (else a random port). */
export async function startTestRedis(hostPort?: number): Promise<TestRedis> {
  process.env['TESTCONTAINERS_HOST_OVERRIDE'] ??= '127.0.0.1';
  let container: StartedTestContainer;
  try {
    container = await new GenericContainer(REDIS_IMAGE)
      .withExposedPorts(hostPort ? { container: 6379, host: hostPort } : 6379)
      .withCommand(['redis-server', '--save', '', '--appendonly', 'no'])
      .withWaitStrategy(Wait.forLogMessage('Ready to accept connections'))
      .start();
  } catch (error) {
    throw new Error(
      `Could not start ${REDIS_IMAGE} with testcontainers. Is a Docker engine running? ` +
        'Start one (see README.md) and retry.',
      { cause: error },
    );
  }
  const port = container.getMappedPort(6379);
  return {
    url: `redis://${container.getHost()}:${port}`,
    port,
    async kill() {
      await container.stop({ timeout: 0 });
    },
  };
}
