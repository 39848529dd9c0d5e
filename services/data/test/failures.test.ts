/**
 * Failure paths: a write that fails midway leaves no trace, expired deadlines are refused
 * before any work, and unexpected errors reach clients as a reference id without internals.
 */
import * as grpc from '@grpc/grpc-js';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalog,
  loadDataConfig,
  startDataService,
  type RunningDataService,
} from '../src/index.js';
import type { Catalog } from '../src/catalog.js';
import type { ChangeFeed } from '../src/changes/change-feed.js';
import { createDataGrpcServer } from '../src/grpc/create-server.js';
import { changeLogBounds } from '../src/storage/change-log.js';
import type { Database, SqlClient } from '../src/storage/database.js';
import { createTestClient, expectCallError } from './harness/catalog-client.js';

/** The real database, except that statements matching `failOn` throw inside transactions. */
function failingOn(db: Database, failOn: RegExp): Database {
  const wrap = (client: SqlClient): SqlClient => ({
    query: (text, params) => {
      if (failOn.test(text)) return Promise.reject(new Error('injected failure'));
      return client.query(text, params);
    },
    exec: (script) => client.exec(script),
  });
  return { ...db, transaction: (work, options) => db.transaction((tx) => work(wrap(tx)), options) };
}

describe('a write failing after its row changed', () => {
  let service: RunningDataService;
  beforeAll(async () => {
    service = await startDataService(
      loadDataConfig({ DATA_PORT: '0', DATA_DIR: 'memory://' }),
      pino({ level: 'silent' }),
    );
  });
  afterAll(() => service.stop());

  it('rolls back the row when the change-log append fails', async () => {
    const before = (await service.catalog.getItem({ id: 5 })).item;
    const logBefore = await changeLogBounds(service.database);
    const broken = createCatalog(failingOn(service.database, /INSERT INTO item_changes/), {
      pageTokenSecret: 'x'.repeat(16),
      changeRetention: 100,
    });
    await expect(
      broken.updateItem({
        item: { ...before!, priceCents: 1 },
        updateMask: ['price_cents'],
        expectedVersion: 1,
      }),
    ).rejects.toThrow('injected failure');
    expect((await service.catalog.getItem({ id: 5 })).item).toEqual(before);
    expect(await changeLogBounds(service.database)).toEqual(logBefore);
  });

  it('rolls back a delete when the notification fails', async () => {
    const broken = createCatalog(failingOn(service.database, /pg_notify/), {
      pageTokenSecret: 'x'.repeat(16),
      changeRetention: 100,
    });
    await expect(broken.deleteItem({ id: 6, expectedVersion: 1 })).rejects.toThrow(
      'injected failure',
    );
    expect((await service.catalog.getItem({ id: 6 })).item?.id).toBe(6);
  });
});

describe('the gRPC layer', () => {
  const calls: string[] = [];
  // Only what these tests call is implemented; each records that it ran.
  const catalog = {
    getItem: async () => {
      calls.push('getItem');
      throw Object.assign(new Error('relation "secret_table" does not exist'), { code: '42P01' });
    },
    listCategories: async () => {
      calls.push('listCategories');
      throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), {
        code: 'ECONNREFUSED',
      });
    },
  } as unknown as Catalog;
  const feed = {
    watch: async () => ({ from: 0, stop: () => undefined }),
    size: () => 0,
    close: async () => undefined,
  } as ChangeFeed;
  let server: grpc.Server;
  let client: ReturnType<typeof createTestClient>;
  const logged: { msg: string; reference?: string }[] = [];

  beforeAll(async () => {
    const logger = pino(
      { level: 'info' },
      { write: (line: string) => void logged.push(JSON.parse(line)) },
    );
    ({ server } = createDataGrpcServer({ catalog, feed, logger }));
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    client = createTestClient(`127.0.0.1:${port}`);
  });
  afterAll(() => {
    client.close();
    server.forceShutdown();
  });

  it('answers INTERNAL with a reference id and no internals, and logs the full error', async () => {
    const error = await expectCallError(client.getItem({ id: 1 }));
    expect(error.code).toBe(grpc.status.INTERNAL);
    expect(error.message).toMatch(/^Internal error \(reference [0-9a-f-]{36}\)\.$/);
    expect(error.message).not.toContain('secret_table');
    expect(error.details).toMatchObject({ reason: 'DATA_INTERNAL', reference: expect.any(String) });
    const entry = logged.find((line) => line.reference === error.details.reference);
    expect(entry?.msg).toBe('call failed unexpectedly');
    expect(JSON.stringify(entry)).toContain('secret_table');
  });

  it('maps a lost database connection to UNAVAILABLE (retryable), without the address', async () => {
    const error = await expectCallError(client.listCategories({}));
    expect(error.code).toBe(grpc.status.UNAVAILABLE);
    expect(error.message).not.toContain('10.0.0.5');
  });

  it('refuses a call whose deadline has passed without doing any work', async () => {
    calls.length = 0;
    const call = {
      request: { id: 1 },
      metadata: new grpc.Metadata(),
      getDeadline: () => new Date(Date.now() - 5),
    } as unknown as grpc.ServerUnaryCall<{ id: number }, unknown>;
    const handlers = (await import('../src/grpc/catalog-handlers.js')).createCatalogHandlers({
      catalog,
      feed,
      logger: pino({ level: 'silent' }),
    });
    const result = await new Promise<grpc.ServiceError | null>((resolve) =>
      handlers.getItem(call as never, (error) => resolve(error as grpc.ServiceError | null)),
    );
    expect(result?.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(calls).toEqual([]);
  });
});
