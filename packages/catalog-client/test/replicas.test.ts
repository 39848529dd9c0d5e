/**
 * Calls spread over every replica behind one name: shared evenly, kept off a replica that stops,
 * and sent to a replica added behind the name without a restart.
 */
import type { RunningDataService } from '@strata/data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogClient } from '../src/catalog-client.js';
import { createGrpcTransport } from '@strata/grpc-transport';
import { MARKER_ID, startReplica, switchableResolver } from './data-replicas.js';

let first: RunningDataService;
let second: RunningDataService;
beforeAll(async () => {
  first = await startReplica('127.0.0.1');
  second = await startReplica('127.0.0.2', first.port);
}, 60_000);
afterAll(async () => {
  await first?.stop();
  await second?.stop();
});

/** Each of the two replicas answered more than `low` and less than `high` of `total` reads. */
function expectSharesBetween(
  answeredBy: Record<string, number>,
  total: number,
  low: number,
  high: number,
) {
  for (const host of ['127.0.0.1', '127.0.0.2']) {
    const share = (answeredBy[`replica ${host}`] ?? 0) / total;
    expect(share).toBeGreaterThan(low);
    expect(share).toBeLessThan(high);
  }
}

/** Which replica answered each of `count` reads (`concurrency` at a time), by the marker's title. */
async function whoAnswers(
  client: ReturnType<typeof createCatalogClient>,
  count: number,
  concurrency = 8,
  /** Filled in as the answers come (to watch the load while it runs). */
  answeredBy: Record<string, number> = {},
) {
  let started = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < count) {
        started += 1;
        try {
          const { item } = await client.getItem({ id: MARKER_ID });
          answeredBy[item!.title] = (answeredBy[item!.title] ?? 0) + 1;
        } catch {
          failed += 1;
        }
      }
    }),
  );
  return { answeredBy, failed };
}

describe('several replicas behind one name', () => {
  it('shares reads between them', async () => {
    const { resolver } = switchableResolver(['127.0.0.1', '127.0.0.2']);
    const transport = createGrpcTransport(`data.test:${first.port}`, { resolver });
    const client = createCatalogClient(transport);
    try {
      const { answeredBy, failed } = await whoAnswers(client, 400);
      expect(failed).toBe(0);
      expect(transport.addresses().sort()).toEqual([
        `127.0.0.1:${first.port}`,
        `127.0.0.2:${first.port}`,
      ]);
      expectSharesBetween(answeredBy, 400, 0.35, 0.65);
    } finally {
      transport.close();
    }
  });

  it('shares reads evenly while a change feed stays open on one replica', async () => {
    const { resolver } = switchableResolver(['127.0.0.1', '127.0.0.2']);
    const transport = createGrpcTransport(`data.test:${first.port}`, { resolver });
    const client = createCatalogClient(transport);
    const feed = client.watchChanges({ afterSequence: 0 });
    feed.on('error', () => undefined);
    try {
      await new Promise((resolve) => feed.once('metadata', resolve));
      // One at a time: a stream counted as a call in flight would send every read to the
      // replica without it.
      const { answeredBy, failed } = await whoAnswers(client, 200, 1);
      expect(failed).toBe(0);
      expectSharesBetween(answeredBy, 200, 0.4, 0.6);
    } finally {
      feed.cancel();
      transport.close();
    }
  });

  it('shares reads made one at a time too (every replica is connected before calls reach it)', async () => {
    const { resolver } = switchableResolver(['127.0.0.1', '127.0.0.2']);
    const transport = createGrpcTransport(`data.test:${first.port}`, { resolver });
    const client = createCatalogClient(transport);
    try {
      const { answeredBy, failed } = await whoAnswers(client, 200, 1);
      expect(failed).toBe(0);
      expect(answeredBy['replica 127.0.0.1']).toBeGreaterThan(70);
      expect(answeredBy['replica 127.0.0.2']).toBeGreaterThan(70);
    } finally {
      transport.close();
    }
  });

  it('loses no read when one replica stops under load, and reaches one added later', async () => {
    const third = await startReplica('127.0.0.3', first.port);
    const { resolver, answer } = switchableResolver(['127.0.0.1', '127.0.0.3']);
    const transport = createGrpcTransport(`data.test:${first.port}`, {
      resolver,
      resolveEveryMs: 200,
    });
    const client = createCatalogClient(transport);
    try {
      const answering: Record<string, number> = {};
      const load = whoAnswers(client, 3000, 8, answering);
      // Stopped mid-load once it has answered (polled: a loaded machine may take a while).
      await expect
        .poll(() => answering['replica 127.0.0.3'] ?? 0, { timeout: 10_000 })
        .toBeGreaterThan(0);
      await third.stop();
      answer(['127.0.0.1']); // the name no longer lists it
      const during = await load;
      expect(during.failed).toBe(0);
      expect(during.answeredBy['replica 127.0.0.3']).toBeGreaterThan(0);

      answer(['127.0.0.1', '127.0.0.2']); // scaled up
      await expect
        .poll(() => transport.addresses().sort(), { timeout: 10_000 })
        .toEqual([`127.0.0.1:${first.port}`, `127.0.0.2:${first.port}`]);
      const after = await whoAnswers(client, 200);
      expect(after.failed).toBe(0);
      expect(after.answeredBy['replica 127.0.0.2']).toBeGreaterThan(40);
      expect(after.answeredBy['replica 127.0.0.3']).toBeUndefined();
      expect(transport.addresses().sort()).toEqual([
        `127.0.0.1:${first.port}`,
        `127.0.0.2:${first.port}`,
      ]);
    } finally {
      transport.close();
      await third.stop();
    }
  }, 60_000);

  it('spreads over a list of addresses, and keeps serving while one of them is down', async () => {
    const transport = createGrpcTransport(
      `127.0.0.1:${first.port},127.0.0.2:${first.port},127.0.0.4:${first.port}`,
    );
    const client = createCatalogClient(transport);
    try {
      const { answeredBy, failed } = await whoAnswers(client, 300);
      expect(failed).toBe(0);
      expect(answeredBy['replica 127.0.0.1']).toBeGreaterThan(50);
      expect(answeredBy['replica 127.0.0.2']).toBeGreaterThan(50);
    } finally {
      transport.close();
    }
  });

  it('reports for readiness how many replicas answer, and none once they are gone', async () => {
    const leaving = await startReplica('127.0.0.5', first.port);
    const transport = createGrpcTransport(
      `127.0.0.1:${first.port},127.0.0.5:${first.port},127.0.0.6:${first.port}`,
    );
    try {
      expect(await transport.probe(1000)).toEqual({ reachable: 2, replicas: 3 });
      await leaving.stop();
      expect(await transport.probe(1000)).toEqual({ reachable: 1, replicas: 3 });
      const alone = createGrpcTransport(`127.0.0.6:${first.port}`);
      expect(await alone.probe(1000)).toEqual({ reachable: 0, replicas: 1 });
      alone.close();
    } finally {
      transport.close();
      await leaving.stop();
    }
  }, 60_000);
});
