/**
 * Contract: the render service's data gateway (`createCatalogGateway` from @strata/render)
 * against the data-service image built from services/data/Dockerfile, on PostgreSQL, as in
 * production. Every RPC, and every error docs/data-service.md documents, as the gateway
 * surfaces it to the app.
 */
import * as grpc from '@grpc/grpc-js';
import { readStatusDetails } from '@strata/proto';
import {
  createCatalogChannel,
  createCatalogGateway,
  ReadRefused,
  type CatalogChannel,
  type CatalogGateway,
} from '@strata/render';
import {
  GenericContainer,
  Network,
  Wait,
  type StartedNetwork,
  type StartedTestContainer,
} from 'testcontainers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from './compose-stack.js';
import { serviceImage } from './images.js';

let network: StartedNetwork;
let postgres: StartedTestContainer;
let data: StartedTestContainer;
let channel: CatalogChannel;
let gateway: CatalogGateway;
let address: string;

beforeAll(async () => {
  const image = await serviceImage('data');
  network = await new Network().start();
  postgres = await new GenericContainer('postgres:15-bookworm')
    .withNetwork(network)
    .withNetworkAliases('postgres')
    .withEnvironment({
      POSTGRES_USER: 'strata',
      POSTGRES_PASSWORD: 'contract',
      POSTGRES_DB: 'strata',
    })
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  data = await new GenericContainer(image)
    .withNetwork(network)
    .withEnvironment({
      DATABASE_URL: 'postgres://strata:contract@postgres:5432/strata',
      PAGE_TOKEN_SECRET: 'contract-test-page-token-secret',
      LOG_LEVEL: 'warn',
    })
    .withExposedPorts(50051)
    // The image's own HEALTHCHECK (gRPC health) decides readiness.
    .withWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(120_000)
    .start();
  address = `${data.getHost()}:${data.getMappedPort(50051)}`;
  channel = createCatalogChannel({ address });
  gateway = createCatalogGateway(channel, { deadlineMs: 2000 }, { traceId: 'contract' });
}, 600_000);

afterAll(async () => {
  channel?.close();
  await data?.stop();
  await postgres?.stop();
  await network?.stop();
}, 120_000);

/** The gRPC error a read rejected with, and the reason in its status details. */
async function readError(pending: Promise<unknown>) {
  const error = (await pending.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as grpc.ServiceError | undefined;
  if (!error) throw new Error('expected the call to fail');
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
    expect(await refusal(gateway.listItems({ pageToken: 'not-a-token' }))).toEqual(['page_token']);
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

describe('WatchChanges over the same channel', () => {
  it('streams the change a write commits, with its tags', async () => {
    const call = channel.rpc.watchChanges({ afterSequence: 0 });
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
    const invalid = channel.rpc.watchChanges({ afterSequence: -1 });
    const status = await new Promise<grpc.ServiceError>((resolve) => invalid.on('error', resolve));
    expect(status.code).toBe(grpc.status.INVALID_ARGUMENT);
  });
});

describe('failures', () => {
  it('DEADLINE_EXCEEDED: a deadline that cannot be met is a deadline error (after read retries)', async () => {
    const hurried = createCatalogGateway(channel, { deadlineMs: 0 }, { traceId: 'deadline' });
    const { code } = await readError(hurried.listItems({ pageSize: 100 }));
    expect(code).toBe(grpc.status.DEADLINE_EXCEEDED);
  });

  // The service must survive PostgreSQL going away (services/data/test/postgres-outage.test.ts)
  // and reconnect by itself once it is back.
  it('UNAVAILABLE / DATA_UNAVAILABLE: PostgreSQL is down; reads recover once it is back', async () => {
    await run(['docker', 'stop', '-t', '2', postgres.getId()]);
    try {
      const patient = createCatalogGateway(channel, { deadlineMs: 5000 }, { traceId: 'db-down' });
      const down = await readError(patient.getItem(3));
      expect(down).toMatchObject({ code: grpc.status.UNAVAILABLE, reason: 'DATA_UNAVAILABLE' });
    } finally {
      await run(['docker', 'start', postgres.getId()]);
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
