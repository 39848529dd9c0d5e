/**
 * The bench items as tests see and change them: the title a replica serves in a payload, and a
 * rename made straight through the data service's gRPC API by another client (so only the change
 * feed tells the replicas).
 */
import { credentials } from '@grpc/grpc-js';
import { CatalogServiceClient, UpdateItemRequest, type Item } from '@strata/proto';
import { expect } from 'vitest';
import { payloadRequest, type Replica } from './start-cached-render.js';

/** The bench item page's title as a replica serves it in a payload. */
export async function benchTitle(replica: Replica, id: number): Promise<string> {
  const request = payloadRequest(`/bench/items/${id}`, '1;bench-root/bench-section/bench-items');
  const response = await replica.app.inject(request);
  expect(response.statusCode).toBe(200);
  const record = response.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; data?: { item: { title: string } } })
    .find((candidate) => candidate.type === 'segment');
  return record?.data?.item.title ?? '(none)';
}

/** A client of the data service that is not a render replica. */
export interface Outsider {
  itemVersion(id: number): Promise<number>;
  rename(id: number, title: string): Promise<void>;
  close(): void;
}

/** Connects an outsider to the data service at `address`. */
export function connectOutsider(address: string): Outsider {
  const client = new CatalogServiceClient(address, credentials.createInsecure());
  const itemVersion = (id: number) =>
    new Promise<number>((resolve, reject) =>
      client.getItem({ id }, (error, answer) =>
        error ? reject(error) : resolve((answer.item as Item).version),
      ),
    );
  return {
    itemVersion,
    async rename(id, title) {
      const expectedVersion = await itemVersion(id);
      await new Promise<void>((resolve, reject) =>
        client.updateItem(
          UpdateItemRequest.fromPartial({
            item: { id, title },
            updateMask: ['title'],
            expectedVersion,
          }),
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    },
    close: () => client.close(),
  };
}
