/**
 * WatchChanges on the transport's server streams, against the real data service: the headers,
 * each committed change, a refused resume point, cancellation, and a stream the replica ends.
 */
import { status } from '@grpc/grpc-js';
import type { RunningDataService } from '@strata/data';
import { UpdateItemRequest, type WatchChangesResponse } from '@strata/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogClient, type CatalogClient } from '../src/catalog-client.js';
import type { GrpcCallError as CatalogCallError } from '@strata/grpc-transport';
import { createGrpcTransport } from '@strata/grpc-transport';
import { startReplica } from './data-replicas.js';

let data: RunningDataService;
let client: CatalogClient;
beforeAll(async () => {
  data = await startReplica('127.0.0.1');
  client = createCatalogClient(createGrpcTransport(data.address));
}, 60_000);
afterAll(async () => {
  client?.close();
  await data?.stop();
});

const endOf = (call: ReturnType<CatalogClient['watchChanges']>) =>
  new Promise<CatalogCallError | 'end'>((resolve) => {
    call.on('error', resolve);
    call.on('end', () => resolve('end'));
  });

describe('WatchChanges', () => {
  it('streams each committed change after the headers name the starting point', async () => {
    const call = client.watchChanges({ afterSequence: 0 });
    const received: WatchChangesResponse[] = [];
    call.on('data', (change) => received.push(change));
    const from = await new Promise<string>((resolve) =>
      call.once('metadata', (metadata) => resolve(String(metadata.get('strata-watch-from')[0]))),
    );
    expect(Number(from)).toBeGreaterThan(0);
    const ended = endOf(call);
    const { item } = await client.createItem({
      title: 'Watched',
      priceCents: 5,
      categoryId: 'cat-2',
      description: '',
    });
    await client.updateItem(
      UpdateItemRequest.fromPartial({
        item: { id: item!.id, title: 'Watched again' },
        updateMask: ['title'],
        expectedVersion: item!.version,
      }),
    );
    for (let waited = 0; received.length < 2 && waited < 10_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received.map((change) => change.itemId)).toEqual([item!.id, item!.id]);
    expect(received[1]!.sequence).toBeGreaterThan(received[0]!.sequence);
    expect(received[0]!.tags).toContain(`item:${item!.id}`);
    call.cancel();
    expect(((await ended) as CatalogCallError).code).toBe(status.CANCELLED);
  });

  it('ends with the status the service refuses a resume point with', async () => {
    const failure = await endOf(client.watchChanges({ afterSequence: -1 }));
    expect((failure as CatalogCallError).code).toBe(status.INVALID_ARGUMENT);
  });

  // A replica shutting down ends the feed (OK); one that vanishes breaks it (UNAVAILABLE).
  it('ends when the replica goes away', async () => {
    const leaving = await startReplica('127.0.0.2');
    const leavingClient = createCatalogClient(createGrpcTransport(leaving.address));
    try {
      const call = leavingClient.watchChanges({ afterSequence: 0 });
      await new Promise((resolve) => call.once('metadata', resolve));
      const ended = endOf(call);
      await leaving.stop();
      const outcome = await ended;
      expect(outcome === 'end' || outcome.code === status.UNAVAILABLE).toBe(true);
    } finally {
      leavingClient.close();
    }
  }, 60_000);
});
