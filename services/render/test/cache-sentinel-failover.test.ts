/**
 * The segment cache on a Sentinel group (real containers: master, replica, three sentinels) under
 * page load on two in-process render replicas, through a failover: the master is killed, the
 * sentinels promote the replica. No page fails; the cache serves again within 10 s of the
 * promotion; and an invalidation that reached only the old master (replication was cut before
 * it, so the promoted replica still holds the invalidated entry and its tag set) does not let the
 * old entry be served from the new master: the cache sees another server and resets.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY_PREFIX } from '../src/segment-cache/redis-segment-store.js';
import { benchTitle, connectOutsider, type Outsider } from './harness/bench-items.js';
import { startLoad } from './harness/page-load.js';
import { startSentinelGroup, type SentinelGroup } from './harness/sentinel-group.js';
import {
  eventually,
  startCachedStack,
  type CachedStack,
  type Replica,
} from './harness/start-cached-render.js';

let group: SentinelGroup;
let stack: CachedStack;
let outsider: Outsider;
// Stopped before the stack also when the test fails half-way.
let loads: ReturnType<typeof startLoad>[] = [];
beforeAll(async () => {
  group = await startSentinelGroup();
  stack = await startCachedStack({
    count: 2,
    env: group.env,
    overrides: { breaker: { failureThreshold: 3, openMs: 300 } },
  });
  outsider = connectOutsider(stack.data.address);
}, 120_000);
afterAll(async () => {
  await Promise.all(loads.map((load) => load.stop()));
  outsider?.close();
  await stack?.stop();
  await group?.stop();
});

const STRADDLING = 7;
const RENAMED = `Item ${STRADDLING} renamed across the failover`;
const sequenceOf = async (redis: Redis) =>
  Number((await redis.get(`${DEFAULT_KEY_PREFIX}seq`)) ?? 0);
const runIdOf = async (redis: Redis) => /run_id:(\w+)/.exec(await redis.info('server'))?.[1];

describe('Redis through Sentinel', () => {
  it(
    'a failover under page load: no failed page, served again within 10 s, nothing stale',
    { timeout: 120_000 },
    async () => {
      const replicas = stack.replicas as [Replica, Replica];
      await eventually(() => replicas.every((r) => r.watcher.connected()), 5000, 'change feeds');
      for (const replica of replicas)
        expect(await benchTitle(replica, STRADDLING)).toBe(`Item ${STRADDLING}`);

      // From the moment the straddling invalidation reached Redis, item 7 must be the new one.
      let invalidatedAt = Number.POSITIVE_INFINITY;
      const checkFresh = (id: number, body: string, startedAt: number) =>
        id === STRADDLING && startedAt > invalidatedAt && !body.includes(RENAMED)
          ? `item ${id} served stale`
          : undefined;
      loads = replicas.map((replica) => startLoad(replica, 6, checkFresh));
      for (const replica of replicas)
        await eventually(
          async () => (await replica.counter('hits_total')) > 20,
          10_000,
          'warm hits',
        );

      // Everything so far is on the replica; then replication is cut (the replica cannot log in
      // again) and the invalidation reaches the master only.
      const master = group.connectTo(group.masterAddress);
      const standby = group.connectTo(group.replicaAddress);
      expect(await master.wait(1, 5000)).toBe(1);
      await standby.config('SET', 'masterauth', 'not-the-password');
      await standby.call('CLIENT', 'KILL', 'TYPE', 'master');
      await eventually(
        async () => /connected_slaves:0/.test(await master.info('replication')),
        5000,
        'the master to lose its replica',
      );
      // The change feed invalidates the item's tags, on the master only.
      await outsider.rename(STRADDLING, RENAMED);
      await eventually(
        async () =>
          (await benchTitle(replicas[0], STRADDLING)) === RENAMED &&
          (await benchTitle(replicas[1], STRADDLING)) === RENAMED,
        5000,
        'the rename to be served',
      );
      invalidatedAt = Date.now();
      expect(await sequenceOf(standby)).toBeLessThan(await sequenceOf(master));

      const resets = { source: 'server-change' };
      const resetsBefore = await Promise.all(
        replicas.map((r) => r.counter('invalidations_total', resets)),
      );
      const killedAt = Date.now();
      await group.killMaster();
      await eventually(
        async () => (await group.reportedMaster()) === group.replicaAddress,
        30_000,
        'the sentinels to promote the replica',
      );
      const promotedAt = Date.now();
      const hitsAtPromotion = await Promise.all(replicas.map((r) => r.counter('hits_total')));
      await eventually(
        async () => {
          const hits = await Promise.all(replicas.map((r) => r.counter('hits_total')));
          return replicas.every(
            (replica, index) =>
              replica.caching.cache.healthy() && hits[index]! > hitsAtPromotion[index]! + 10,
          );
        },
        10_000,
        'the cache to serve again after the promotion',
      );
      const servingAgainAt = Date.now();

      for (const replica of replicas) expect(await benchTitle(replica, STRADDLING)).toBe(RENAMED);
      const results = await Promise.all(loads.map((load) => load.stop()));
      for (const result of results) {
        expect(result.failures).toEqual([]);
        expect(result.sent).toBeGreaterThan(100);
      }
      // Both replicas noticed the other server, and the new master is the one the data is kept on.
      for (const [index, replica] of replicas.entries())
        expect(await replica.counter('invalidations_total', resets)).toBeGreaterThan(
          resetsBefore[index]!,
        );
      expect(await standby.get(`${DEFAULT_KEY_PREFIX}srv`)).toBe(await runIdOf(standby));
      console.info(
        `sentinel failover: promoted ${promotedAt - killedAt} ms after the kill, cache serving again ` +
          `${servingAgainAt - promotedAt} ms after the promotion; ${results.map((r) => r.sent).join(' + ')} pages, 0 failed`,
      );
    },
  );
});
