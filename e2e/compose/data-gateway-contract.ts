/**
 * Contract: the render service's data gateway (`createCatalogGateway` from @strata/render, on
 * @strata/catalog-client) against the data-service image built from services/data/Dockerfile,
 * on PostgreSQL, as in production. Every RPC, and every error docs/data-service.md documents, as
 * the gateway surfaces it to the app. Run twice: in plaintext and over TLS
 * (data-gateway.contract.test.ts, data-gateway-tls.contract.test.ts).
 */
import * as grpc from '@grpc/grpc-js';
import {
  createCatalogClient,
  createGrpcTransport,
  type GrpcTransport,
} from '@strata/catalog-client';
import { readStatusDetails } from '@strata/proto';
import { createCatalogGateway, ReadRefused, type CatalogGateway } from '@strata/app-catalog';
import type { TestCertificates } from '@strata/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from './compose-stack.js';
import {
  startDataServiceOnPostgres,
  type DataServiceContainers,
} from './data-service-containers.js';

/** What a file that runs the contract can use in tests of its own. */
export interface GatewayContract {
  /** host:port of the data service (after beforeAll). */
  address(): string;
  /** The test CA and certificates (TLS mode). */
  certificates(): TestCertificates;
  /** The gRPC code and status-detail reason a call failed with. */
  readError(pending: Promise<unknown>): Promise<{ code: grpc.status; reason: string | undefined }>;
}

/** Registers the whole contract, the data service serving plaintext or over mutual TLS. */
export function describeGatewayContract(mode: 'plaintext' | 'tls'): GatewayContract {
  let containers: DataServiceContainers;
  let transport: GrpcTransport;
  let gateway: CatalogGateway;
  const gatewayWith = (deadlineMs: number, traceId: string) =>
    createCatalogGateway(createCatalogClient(transport, { deadlineMs }), { traceId });

  beforeAll(async () => {
    containers = await startDataServiceOnPostgres(mode);
    transport = createGrpcTransport(containers.address, { tls: containers.clientTls });
    gateway = gatewayWith(2000, 'contract');
  }, 600_000);

  afterAll(async () => {
    transport?.close();
    await containers?.stop();
  }, 120_000);

  /**
   * The gRPC error a read rejected with, and the reason in its status details (the client
   * rejects with a CatalogError whose cause is the gRPC error: the wire is what is checked here).
   */
  async function readError(pending: Promise<unknown>) {
    const caught = await pending.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    if (!caught) throw new Error('expected the call to fail');
    const error = ((caught as Error).cause ?? caught) as grpc.ServiceError;
    return { code: error.code, reason: readStatusDetails(error.metadata).reason, error };
  }

  describe('reads', () => {
    it('ListCategories: the seeded categories in natural order, tagged', async () => {
      const { categories, tags } = await gateway.listCategories();
      expect(categories).toHaveLength(20);
      const ids = categories.map((category) => category.id);
      expect(ids.slice(0, 3)).toEqual(['cat-0', 'cat-1', 'cat-2']);
      expect(ids.indexOf('cat-10')).toBe(ids.indexOf('cat-9') + 1);
      expect(tags).toEqual(['categories']);
    });

    it('ListItems: filters, pages with signed tokens, tags per filter', async () => {
      const first = await gateway.listItems({ categoryId: 'cat-2', pageSize: 10 });
      expect(first.items).toHaveLength(10);
      expect(first.items.every((item) => item.categoryId === 'cat-2')).toBe(true);
      expect(first.tags).toEqual(['category:cat-2']);
      const second = await gateway.listItems({
        categoryId: 'cat-2',
        pageSize: 10,
        pageToken: first.nextPageToken,
      });
      expect(second.items[0]!.id).toBeGreaterThan(first.items.at(-1)!.id);
      const searched = await gateway.listItems({ query: 'zzz-no-such-title', pageSize: 5 });
      expect(searched).toMatchObject({ items: [], nextPageToken: '', tags: ['items'] });
    });

    it('GetItem: the item with its tag; null when it does not exist', async () => {
      const found = await gateway.getItem(1);
      expect(found?.item.id).toBe(1);
      expect(found?.tags).toEqual(['item:1']);
      expect(await gateway.getItem(999_999)).toBeNull();
    });

    it('INVALID_ARGUMENT on reads: a forged page token, a foreign one, an id ≤ 0', async () => {
      // The gateway turns the data service's refusal into the client's mistake, by field.
      const refusal = async (pending: Promise<unknown>) => {
        const caught = await pending.then(
          () => undefined,
          (error: unknown) => error,
        );
        if (!(caught instanceof ReadRefused)) throw new Error(`expected a ReadRefused: ${caught}`);
        return Object.keys(caught.fieldErrors);
      };
      expect(await refusal(gateway.listItems({ pageToken: 'not-a-token' }))).toEqual([
        'page_token',
      ]);
      const page = await gateway.listItems({ categoryId: 'cat-1', pageSize: 2 });
      expect(
        await refusal(
          gateway.listItems({ categoryId: 'cat-3', pageSize: 2, pageToken: page.nextPageToken }),
        ),
      ).toEqual(['page_token']);
      expect(await refusal(gateway.getItem(0))).toEqual(['id']);
    });
  });

  describe('writes', () => {
    const title = `Contract item ${Date.now()}`;

    it('CreateItem, UpdateItem, DeleteItem: versions and tags', async () => {
      const created = await gateway.createItem({
        title,
        priceCents: 1234,
        categoryId: 'cat-4',
        description: 'made by the container contract test',
      });
      const item = created.item!;
      expect(item).toMatchObject({ title, priceCents: 1234, categoryId: 'cat-4', version: 1 });
      expect(created.tags).toEqual(
        expect.arrayContaining([`item:${item.id}`, 'items', 'category:cat-4']),
      );

      const moved = await gateway.updateItem(item.id, 1, { categoryId: 'cat-5' }, ['category_id']);
      expect(moved.item).toMatchObject({ id: item.id, categoryId: 'cat-5', version: 2, title });
      expect(moved.tags).toEqual(
        expect.arrayContaining([`item:${item.id}`, 'items', 'category:cat-4', 'category:cat-5']),
      );

      const deleted = await gateway.deleteItem(item.id, 2);
      expect(deleted.tags).toContain(`item:${item.id}`);
      expect(await gateway.getItem(item.id)).toBeNull();
    });

    it('INVALID_ARGUMENT on writes: every bad field at once, as field messages', async () => {
      const refused = await gateway
        .createItem({ title: '   ', priceCents: -1, categoryId: 'No Such!', description: '' })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(refused).toMatchObject({ name: 'WriteRefused', kind: 'invalid' });
      const fields = Object.keys((refused as { fieldErrors: object }).fieldErrors).sort();
      expect(fields).toEqual(['category_id', 'price_cents', 'title']);
    });

    it('ALREADY_EXISTS: the same title in the category (case-insensitive)', async () => {
      const existing = (await gateway.getItem(1))!.item;
      await expect(
        gateway.createItem({
          title: existing.title.toUpperCase(),
          priceCents: 1,
          categoryId: existing.categoryId,
          description: '',
        }),
      ).rejects.toMatchObject({ name: 'WriteRefused', kind: 'exists' });
    });

    it('ABORTED: a stale expected_version is a conflict', async () => {
      const current = (await gateway.getItem(2))!.item;
      await expect(
        gateway.updateItem(2, current.version + 5, { priceCents: 1 }, ['price_cents']),
      ).rejects.toMatchObject({ kind: 'conflict' });
      await expect(gateway.deleteItem(2, current.version + 5)).rejects.toMatchObject({
        kind: 'conflict',
      });
    });

    it('NOT_FOUND: updating or deleting an item that does not exist', async () => {
      await expect(
        gateway.updateItem(999_999, 1, { priceCents: 1 }, ['price_cents']),
      ).rejects.toMatchObject({
        kind: 'not-found',
      });
      await expect(gateway.deleteItem(999_999, 1)).rejects.toMatchObject({ kind: 'not-found' });
    });
  });

  describe('WatchChanges over the same connections', () => {
    it('streams the change a write commits, with its tags', async () => {
      const client = createCatalogClient(transport);
      const call = client.watchChanges({ afterSequence: 0 });
      const received = new Promise<{ itemId: number; tags: string[] }>((resolve, reject) => {
        call.on('data', resolve);
        call.on('error', reject);
      });
      // The stream's headers mean the watch is registered.
      await new Promise<void>((resolve) => call.once('metadata', () => resolve()));
      const { item } = await gateway.createItem({
        title: `Watched ${Date.now()}`,
        priceCents: 5,
        categoryId: 'cat-6',
        description: '',
      });
      const change = await received;
      call.cancel();
      expect(change.itemId).toBe(item!.id);
      expect(change.tags).toContain(`item:${item!.id}`);
      const invalid = client.watchChanges({ afterSequence: -1 });
      const status = await new Promise<grpc.ServiceError>((resolve) =>
        invalid.on('error', resolve),
      );
      expect(status.code).toBe(grpc.status.INVALID_ARGUMENT);
    });
  });

  describe('failures', () => {
    it('DEADLINE_EXCEEDED: a deadline that cannot be met is a deadline error (after read retries)', async () => {
      const hurried = gatewayWith(0, 'deadline');
      const { code } = await readError(hurried.listItems({ pageSize: 100 }));
      expect(code).toBe(grpc.status.DEADLINE_EXCEEDED);
    });

    // The service must survive PostgreSQL going away (services/data/test/postgres-outage.test.ts)
    // and reconnect by itself once it is back.
    it('UNAVAILABLE / DATA_UNAVAILABLE: PostgreSQL is down; reads recover once it is back', async () => {
      await run(['docker', 'stop', '-t', '2', containers.postgresId]);
      try {
        const patient = gatewayWith(5000, 'db-down');
        const down = await readError(patient.getItem(3));
        expect(down).toMatchObject({ code: grpc.status.UNAVAILABLE, reason: 'DATA_UNAVAILABLE' });
      } finally {
        await run(['docker', 'start', containers.postgresId]);
      }
      const until = Date.now() + 60_000;
      let item: unknown = null;
      while (!item && Date.now() < until) {
        item = await gateway.getItem(3).catch(() => null);
        if (!item) await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(item).toMatchObject({ item: { id: 3 } });
    });
  });

  return {
    address: () => containers.address,
    certificates: () => containers.certificates!,
    readError,
  };
}
