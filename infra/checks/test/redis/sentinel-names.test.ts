/**
 * The chart's Redis through Sentinel on emulated pods (src/redis: the chart's own render on real
 * Redis containers, stable names, a new address for every replaced pod, NXDOMAIN at once for a
 * gone name). With names (redis.sentinel.hostnames, the default) replaced pods keep their entries
 * in the sentinels' tables, a failover after two sentinels were replaced reaches the render side,
 * and a master that comes back under its name at once ends as a replica (a second master
 * meanwhile is an open race, docs/kubernetes.md).
 * With addresses the same replacements leave stale entries and a returning master replicating
 * nothing: the contrast that shows these checks can fail.
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  startChartSentinelGroup,
  type ChartSentinelGroup,
} from '../../src/redis/chart-sentinel-group.js';

const [DATA_0, DATA_1] = ['strata-redis-0', 'strata-redis-1'];
const SENTINELS = ['strata-redis-sentinel-0', 'strata-redis-sentinel-1', 'strata-redis-sentinel-2'];
const DOWN_AFTER_MS = 5000; // the chart's sentinel.conf
const until = (check: () => Promise<void>, timeout = 30_000) =>
  vi.waitFor(check, { timeout, interval: 250 });

/** SENTINEL REPLICAS / SENTINELS: one record per entry. */
const records = (reply: unknown) =>
  (reply as string[][]).map((fields) =>
    Object.fromEntries(fields.flatMap((_, i) => (i % 2 ? [] : [[fields[i], fields[i + 1]]]))),
  ) as Record<string, string>[];
const sentinel = (group: ChartSentinelGroup, pod: string, ...args: string[]) =>
  group.withClient(pod, (client: Redis) => client.call('SENTINEL', ...args));
const table = async (group: ChartSentinelGroup, pod: string, of: 'REPLICAS' | 'SENTINELS') =>
  records(await sentinel(group, pod, of, 'strata'));
const masterNamed = async (group: ChartSentinelGroup, pod: string) =>
  ((await sentinel(group, pod, 'GET-MASTER-ADDR-BY-NAME', 'strata')) as string[])[0];
const role = (group: ChartSentinelGroup, pod: string) =>
  group.withClient(pod, async (client) => (await client.call('ROLE')) as unknown[]);
const runId = (group: ChartSentinelGroup, pod: string) =>
  group.withClient(pod, async (client) => /run_id:(\w+)/.exec(await client.info('server'))![1]);

async function startGroup(hostnames: boolean) {
  const group = await startChartSentinelGroup(hostnames);
  for (const pod of [...group.dataNodes, ...group.sentinels]) await group.start(pod);
  await until(async () => {
    for (const pod of SENTINELS) {
      expect(await table(group, pod, 'REPLICAS')).toHaveLength(1);
      expect(await table(group, pod, 'SENTINELS')).toHaveLength(2);
    }
  }, 60_000);
  return group;
}

/** Every entry of every sentinel's table, as "<ip> <flags>". */
const entries = async (group: ChartSentinelGroup, of: 'REPLICAS' | 'SENTINELS') =>
  Promise.all(
    SENTINELS.map(async (pod) =>
      (await table(group, pod, of)).map((entry) => `${entry['ip']} ${entry['flags']}`).sort(),
    ),
  );

describe('the chart’s Sentinel with names (redis.sentinel.hostnames)', () => {
  let group: ChartSentinelGroup;
  beforeAll(async () => {
    group = await startGroup(true);
  }, 120_000);
  afterAll(() => group?.stop());

  it('a name no pod holds fails at once (as cluster DNS answers), one that a pod holds resolves', async () => {
    const startedAt = Date.now();
    const gone = `${DATA_0}.gone.strata.svc.cluster.local`;
    await expect(group.pods.exec(DATA_1, ['getent', 'hosts', gone])).rejects.toThrow(
      'Command failed',
    );
    const lookupMs = Date.now() - startedAt;
    expect(lookupMs).toBeLessThan(2000); // a docker exec included; forwarded, it took 20 s
    expect(await group.pods.exec(DATA_1, ['getent', 'hosts', group.fqdn(DATA_0)])).toContain(
      group.pods.address(DATA_0),
    );
    console.info(`a gone name: NXDOMAIN after ${lookupMs} ms (docker exec included)`);
  });

  it(
    'a replaced replica (new address) stays the one replica, not a down one and a new one',
    { timeout: 60_000 },
    async () => {
      const { before, after } = await group.replace(DATA_1);
      expect(after).not.toBe(before);
      await until(async () => expect((await role(group, DATA_1))[3]).toBe('connected'));
      // A sentinel whose link hung on the gone address marks the entry down for some seconds
      // (15 s seen), which it may do only after DOWN_AFTER_MS, when the tables already read
      // healthy; then it finds the new pod under the same name. Never a second entry.
      const replica = group.fqdn(DATA_1);
      const counts = new Set<number>();
      const names = new Set<string>();
      const read = async () => {
        const tables = await entries(group, 'REPLICAS');
        for (const each of tables) {
          counts.add(each.length);
          for (const entry of each) names.add(entry.split(' ')[0]!);
        }
        return tables;
      };
      // Watched past the time an entry of the old address would have been marked down...
      const watchUntil = Date.now() + DOWN_AFTER_MS + 1000;
      while (Date.now() < watchUntil) {
        await read();
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      // ...and until every sentinel has it up again.
      await until(
        async () => expect(await read()).toEqual(SENTINELS.map(() => [`${replica} slave`])),
        40_000,
      );
      expect(counts).toEqual(new Set([1]));
      expect(names).toEqual(new Set([replica]));
    },
  );

  it(
    'two sentinels replaced (new addresses), then the master killed: failover, and the render side writes to the new master',
    { timeout: 120_000 },
    async () => {
      for (const pod of SENTINELS.slice(1)) {
        const { before, after } = await group.replace(pod);
        expect(after).not.toBe(before);
      }
      await until(async () => {
        const tables = await entries(group, 'SENTINELS');
        expect(tables).toEqual(
          SENTINELS.map((self) =>
            SENTINELS.filter((other) => other !== self).map(
              (other) => `${group.fqdn(other)} sentinel`,
            ),
          ),
        );
      });
      const first = await runId(group, DATA_0);
      await until(async () => expect(await group.probe()).toBe(first)); // the probe starting

      const promoted = await runId(group, DATA_1);
      const killedAt = Date.now();
      await group.pods.remove(DATA_0);
      await until(async () => {
        for (const pod of SENTINELS) expect(await masterNamed(group, pod)).toBe(group.fqdn(DATA_1));
      });
      const promotedAt = Date.now();
      await until(async () => expect(await group.probe()).toBe(promoted), 15_000);
      console.info(
        `names: promoted ${promotedAt - killedAt} ms after the kill, the render side on it ${Date.now() - promotedAt} ms later`,
      );
      // The old master back after the promotion: a replica of the new one.
      await group.start(DATA_0);
      await until(async () =>
        expect((await role(group, DATA_0)).slice(0, 4)).toEqual([
          'slave',
          group.fqdn(DATA_1),
          6379,
          'connected',
        ]),
      );
    },
  );

  // "Never a second master" is not asserted while a race in the chart is open
  // (docs/kubernetes.md): both data nodes have answered as master at one poll; it is logged.
  it(
    'the master killed and back under its name at once ends as a replica of the promoted node',
    { timeout: 120_000 },
    async () => {
      // DATA_1 is the master now; DATA_0 holds its data.
      const promoted = await runId(group, DATA_0);
      // Both data nodes' roles every 100 ms while the master is replaced.
      const masters = new Set<string>();
      const watching = new AbortController();
      const watch = (async () => {
        while (!watching.signal.aborted) {
          const roles = await Promise.all(
            [DATA_0, DATA_1].map((pod) => role(group, pod).catch(() => ['down'])),
          );
          if (roles.every((each) => each[0] === 'master')) masters.add('both');
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const { before, after } = await group.replace(DATA_1);
      expect(after).not.toBe(before);
      try {
        await until(async () => {
          expect((await role(group, DATA_1)).slice(0, 4)).toEqual([
            'slave',
            group.fqdn(DATA_0),
            6379,
            'connected',
          ]);
          expect((await role(group, DATA_0))[0]).toBe('master');
          for (const pod of SENTINELS)
            expect(await masterNamed(group, pod)).toBe(group.fqdn(DATA_0));
        }, 45_000);
      } finally {
        watching.abort();
        await watch;
      }
      if (masters.size > 0) console.info('both data nodes answered as master at one poll');
      await until(async () => expect(await group.probe()).toBe(promoted), 15_000);
    },
  );
});

describe('the same with addresses (redis.sentinel.hostnames=false): the contrast', () => {
  let group: ChartSentinelGroup;
  beforeAll(async () => {
    group = await startGroup(false);
  }, 120_000);
  afterAll(() => group?.stop());

  it(
    'a master back at once replicates nothing; replaced pods leave stale entries',
    { timeout: 120_000 },
    async () => {
      // Handed its old address by the sentinels, the new master pod replicates a gone pod.
      const old = await group.replace(DATA_0);
      const promoted = group.pods.address(DATA_1)!;
      await until(async () => {
        for (const pod of SENTINELS) expect(await masterNamed(group, pod)).toBe(promoted);
      });
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const [state, master, , link] = await role(group, DATA_0);
      expect([state, master]).toEqual(['slave', old.before]);
      expect(link).not.toBe('connected');
      // The sentinels list the old address (down; disconnected or not), not the new pod.
      const down = (flags: string) => flags.startsWith('s_down,');
      await until(async () => {
        for (const pod of SENTINELS) {
          const replicas = await table(group, pod, 'REPLICAS');
          expect(replicas.map((r) => [r['ip'], down(r['flags']!)])).toEqual([[old.before, true]]);
        }
      });

      const stale: string[] = [];
      for (const pod of SENTINELS.slice(1)) stale.push((await group.replace(pod)).before);
      await until(async () => {
        const sentinels = await table(group, SENTINELS[0]!, 'SENTINELS');
        expect(sentinels).toHaveLength(4);
        expect(
          sentinels.filter((s) => stale.includes(s['ip']!)).map((s) => down(s['flags']!)),
        ).toEqual([true, true]);
      });
    },
  );
});
