/**
 * The data service's connections landing on a server that no longer takes writes, as after a
 * demotion or when an operator fences the old primary: the server turns read-only under a
 * running service (`ALTER SYSTEM SET default_transaction_read_only` and a reload reach every
 * open connection). A write must answer the retryable DATA_UNAVAILABLE at once, saying why —
 * not hang, not INTERNAL — and the connection that carried it must be closed, so the pool opens
 * new ones through the address. Reads go on; writes work again once the server takes them.
 */
import { status } from '@grpc/grpc-js';
import { startTestPostgres } from '@strata/testing';
import { Client } from 'pg';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loadDataConfig, startDataService } from '../src/index.js';
import { createTestClient, expectCallError } from './harness/catalog-client.js';

const DEADLINE_MS = 5000;

/** Runs statements as the superuser, from outside the service. */
async function admin(url: string, ...statements: string[]): Promise<unknown[][]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const results: unknown[][] = [];
    for (const text of statements) results.push((await client.query(text)).rows);
    return results;
  } finally {
    await client.end();
  }
}

/** Backend pids of the service's connections, except the one waiting in LISTEN. */
async function serviceBackends(url: string): Promise<number[]> {
  const [rows] = await admin(
    url,
    `SELECT pid FROM pg_stat_activity WHERE datname = current_database()
       AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND query NOT LIKE 'LISTEN%'`,
  );
  return (rows as { pid: number }[]).map((row) => row.pid);
}

const newItem = (title: string) => ({
  title,
  priceCents: 100,
  categoryId: 'cat-1',
  description: 'read-only test',
});

describe('a connection on a read-only server', () => {
  it('answers writes with a retryable error, drops the connection, and recovers', async () => {
    const postgres = await startTestPostgres();
    const url = await postgres.createDatabase();
    // One pool connection besides the LISTEN one, so the connection a write used is known.
    const service = await startDataService(
      loadDataConfig({ DATA_PORT: '0', DATABASE_URL: url, DATABASE_POOL_SIZE: '2' }),
      pino({ level: 'silent' }),
    );
    const client = createTestClient(service.address);
    try {
      expect(
        (await client.createItem(newItem('Before read-only'), DEADLINE_MS)).item?.version,
      ).toBe(1);
      await admin(
        url,
        'ALTER SYSTEM SET default_transaction_read_only = on',
        'SELECT pg_reload_conf()',
      );
      await expect
        .poll(async () => (await admin(url, 'SHOW default_transaction_read_only'))[0])
        .toEqual([{ default_transaction_read_only: 'on' }]);
      const before = await serviceBackends(url);
      expect(before).toHaveLength(1);

      const started = Date.now();
      const error = await expectCallError(
        client.createItem(newItem('During read-only'), DEADLINE_MS),
      );
      const tookMs = Date.now() - started;
      console.log(`read-only server: the write was refused in ${tookMs} ms: ${error.message}`);
      expect(error.code).toBe(status.UNAVAILABLE);
      expect(error.details.reason).toBe('DATA_UNAVAILABLE');
      expect(error.message).toMatch(/read-only/);
      expect(tookMs).toBeLessThan(DEADLINE_MS);
      // The connection that met the read-only server is closed, not returned to the pool.
      await expect.poll(() => serviceBackends(url), { timeout: 5000 }).not.toContain(before[0]);

      // Reads still answer from the read-only server (on a new connection).
      expect((await client.getItem({ id: 3 }, DEADLINE_MS)).item?.id).toBe(3);

      await admin(
        url,
        'ALTER SYSTEM RESET default_transaction_read_only',
        'SELECT pg_reload_conf()',
      );
      await expect
        .poll(
          async () =>
            (await client.createItem(newItem('After read-only'), DEADLINE_MS)).item?.title,
          {
            timeout: 10_000,
          },
        )
        .toBe('After read-only');
    } finally {
      client.close();
      await service.stop();
      await postgres.stop();
    }
  });
});
