/**
 * PostgreSQL going away under a running data service: its gRPC health turns NOT_SERVING, calls
 * fail with UNAVAILABLE (retryable, DATA_UNAVAILABLE) and the process keeps running; the dedicated LISTEN connection breaking
 * does not crash it either. (Recovery when the server returns is covered on the images by
 * e2e/compose/data-gateway.contract.test.ts.)
 */
import * as grpc from '@grpc/grpc-js';
import { status } from '@grpc/grpc-js';
import { startTestPostgres } from '@strata/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadDataConfig, startDataService } from '../src/index.js';
import { createTestClient, expectCallError } from './harness/catalog-client.js';
import { collectChanges } from './harness/watch-collector.js';

/** grpc.health.v1 status of the whole server: 1 SERVING, 2 NOT_SERVING. */
async function healthOf(address: string): Promise<number> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const identity = (bytes: Buffer) => bytes;
  try {
    const reply = await new Promise<Buffer>((resolve, reject) =>
      client.makeUnaryRequest(
        '/grpc.health.v1.Health/Check',
        identity,
        identity,
        Buffer.alloc(0),
        { deadline: Date.now() + 2000 },
        (error, value) => (error ? reject(error) : resolve(value!)),
      ),
    );
    return reply[1] ?? 0; // HealthCheckResponse { status }: field 1, varint
  } finally {
    client.close();
  }
}

async function healthBecomes(address: string, wanted: number, withinMs: number) {
  const until = Date.now() + withinMs;
  while ((await healthOf(address)) !== wanted && Date.now() < until)
    await new Promise((resolve) => setTimeout(resolve, 200));
  return healthOf(address);
}

describe('PostgreSQL outage', () => {
  it('answers UNAVAILABLE instead of crashing when the database goes away', async () => {
    const postgres = await startTestPostgres();
    const service = await startDataService(
      loadDataConfig({ DATA_PORT: '0', DATABASE_URL: await postgres.createDatabase() }),
      pino({ level: 'silent' }),
    );
    const client = createTestClient(service.address);
    try {
      // A watcher holds the LISTEN connection open, so its failure is exercised too.
      const watch = collectChanges(client);
      await watch.ready;
      expect((await client.getItem({ id: 3 })).item?.id).toBe(3);
      expect(await healthOf(service.address)).toBe(1);
      await postgres.stop();
      // Not ready while the database does not answer (checked every 2 s).
      expect(await healthBecomes(service.address, 2, 10_000)).toBe(2);
      const error = await expectCallError(client.getItem({ id: 3 }, 10_000));
      expect(error.code).toBe(status.UNAVAILABLE);
      expect(error.details.reason).toBe('DATA_UNAVAILABLE');
      // Still alive and answering after the LISTEN connection broke.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await expectCallError(client.listCategories({}, 10_000))).code).toBe(
        status.UNAVAILABLE,
      );
      watch.close();
    } finally {
      client.close();
      await service.stop();
    }
  });
});
