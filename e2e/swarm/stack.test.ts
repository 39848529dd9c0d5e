/**
 * docker-stack.yml on a real two-node Swarm (cluster.ts: this machine's engine plus a second
 * dockerd in a network namespace), driven through the gateway's host-mode port on node one:
 * pages stream from a render replica on the other node, the segment cache is shared across
 * nodes, payloads and actions work, a node drains under load without a failed request, new
 * render replicas get traffic without a gateway change, and the relay's spool outlives its task.
 * Production mode: every secret from Swarm secrets, no development opt-out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeStream } from '../compose/compose-stack.js';
import { measureLoadWhile } from '../compose/page-load.js';
import { errorEnvelope, startRecorder, type Recorder } from '../compose/recorder.js';
import { createCluster, type Cluster } from './cluster.js';
import {
  answeredBy,
  cacheCounters,
  getInside,
  newReplicasAnswering,
  recordsOf,
} from './render-probes.js';
import { deploySwarmStack, type SwarmStack } from './swarm-stack.js';
import { until } from '../harness/until.js';

const TAG = process.env['STRATA_TAG'] || 'local';
const DSN = 'http://strata0swarm0key@127.0.0.1:8080/11';
const started = Date.now();
const progress = (what: string) =>
  console.log(`[swarm] ${((Date.now() - started) / 1000).toFixed(0)} s: ${what}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let cluster: Cluster;
let stack: SwarmStack;
let recorder: Recorder;

beforeAll(async () => {
  recorder = await startRecorder();
  cluster = await createCluster();
  progress('cluster up (two nodes)');
  // Only what the stack may place on node two: its stateless tiers. The gateway and the
  // stateful services are pinned to node one by label.
  await cluster.loadImages([`strata-render:${TAG}`, `strata-data:${TAG}`]);
  progress('images loaded on node two');
  stack = await deploySwarmStack(cluster, {
    env: {
      RELAY_DSNS: DSN,
      RELAY_UPSTREAM: recorder.upstreamForContainers,
      RENDER_APP: '@strata/app-bench',
      RENDER_ERROR_DRILLS: 'true',
      // Production mode: the secrets are Swarm secrets with fresh values.
      STRATA_ALLOW_DEVELOPMENT_SECRETS: '',
    },
    overrides: ['e2e/swarm/relay-upstream.stack.yml'],
  });
  progress(`deployed ${stack.name}, gateway on ${stack.url}`);
}, 600_000);

afterAll(async () => {
  await cluster?.tearDown();
  await recorder?.close();
  progress('cluster torn down');
}, 300_000);

describe('Strata on a two-node Swarm', () => {
  it('places render and data replicas on both nodes, the gateway and stateful services on node one', async () => {
    const nodesOf = async (service: string) =>
      (
        await cluster.docker(
          'one',
          'service',
          'ps',
          '-f',
          'desired-state=running',
          '--format',
          '{{.Node}}',
          stack.service(service),
        )
      )
        .split('\n')
        .filter(Boolean)
        .sort();
    const both = [cluster.hostnames.one, cluster.hostnames.two].sort();
    expect(await nodesOf('render')).toEqual(both);
    expect(await nodesOf('data')).toEqual(both);
    for (const pinned of ['gateway', 'postgres', 'redis', 'relay'])
      expect([...new Set(await nodesOf(pinned))]).toEqual([cluster.hostnames.one]);
    expect(await nodesOf('relay')).toHaveLength(2);
  });

  it('streams a page through the gateway on node one from a render replica on node two', async () => {
    const renders = await stack.tasks('render');
    // least_conn alternates between idle replicas: a few tries find the one on node two.
    for (let attempt = 0; attempt < 8; attempt++) {
      const timing = await timeStream(`${stack.url}/slow`, [
        'Loading the slow page',
        "Today's picks",
      ]);
      expect(timing.status).toBe(200);
      const replica = await answeredBy(stack, timing.headers.get('x-request-id') ?? '', renders);
      if (replica?.node !== 'two') continue;
      const loading = timing.markers['Loading the slow page'];
      const data = timing.markers["Today's picks"];
      expect(loading).toBeDefined();
      expect(data).toBeDefined();
      // The loader waits 1.2 s: a buffered answer would bring both at once.
      expect(data! - loading!).toBeGreaterThan(600);
      progress(
        `1. /slow from ${replica.addresses['web']} on node two: loading view ${loading!.toFixed(0)} ms, data ${data!.toFixed(0)} ms`,
      );
      return;
    }
    throw new Error('no /slow answer came from the render replica on node two');
  });

  it('serves a segment cached by the replica on one node from the replica on the other', async () => {
    const renders = await stack.tasks('render');
    const first = renders.find((task) => task.node === 'one')!;
    const second = renders.find((task) => task.node === 'two')!;
    // A listing nobody asked for: no replica has it, so the first must load it.
    const path = `/items?q=${encodeURIComponent(`swarm cache ${process.pid}`)}`;
    const before = {
      first: await cacheCounters(stack, first),
      second: await cacheCounters(stack, second),
    };
    const loaded = await getInside(stack, first, path);
    const afterFirst = await cacheCounters(stack, first);
    const served = await getInside(stack, second, path);
    const afterSecond = await cacheCounters(stack, second);
    expect(afterFirst.misses).toBeGreaterThan(before.first.misses);
    // The other node's replica found it in Redis (over the overlay network) and loaded nothing.
    expect(afterSecond.storeHits).toBeGreaterThan(before.second.storeHits);
    expect(afterSecond.misses).toBe(before.second.misses);
    expect(served).toContain('swarm cache');
    expect(loaded).toContain('swarm cache');
    progress('2. segment loaded on node one served from the shared cache on node two');
  });

  it('answers a client navigation payload and runs a server action through the gateway', async () => {
    // Without _p the render service answers 307 to the URL with it; fetch follows it with the
    // same headers, as the browser runtime's first request would.
    const payload = await fetch(`${stack.url}/bench/items`, {
      headers: { 'strata-payload': '1', 'strata-tree': '1;' },
    });
    expect(payload.status).toBe(200);
    expect(payload.url).toMatch(/[?&]_p=[0-9a-z]{14}$/);
    expect(payload.headers.get('content-type')).toMatch(/^application\/x-strata-payload; v=1/);
    const records = await recordsOf(payload);
    expect(records[0]?.type).toBe('route');
    expect(records.at(-1)?.type).toBe('end');
    expect(
      records.some((record) => record.type === 'segment' && record['id'] === 'bench-items'),
    ).toBe(true);

    const form = await (await fetch(`${stack.url}/items/new`)).text();
    const actionId = /name="\$action" value="([0-9a-f]{32})"/.exec(form)?.[1];
    expect(actionId).toBeDefined();
    const title = `Swarm item ${process.pid}`;
    const action = await fetch(`${stack.url}/items/new`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: stack.url,
        'strata-action': actionId!,
        'strata-tree': '1;',
      },
      body: JSON.stringify({ title, price: '23.45', categoryId: 'cat-1' }),
    });
    expect(action.status).toBe(200);
    const answer = await recordsOf(action);
    const [outcome] = answer;
    expect(outcome).toMatchObject({ type: 'action', ok: true, result: { id: expect.any(Number) } });
    const { id } = outcome!['result'] as { id: number };
    expect(answer.find((record) => record.type === 'redirect')).toMatchObject({
      location: `/items/${id}`,
    });
    // Every replica, on either node, serves the new item.
    const titles = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const item = (await (await fetch(`${stack.url}/api/items/${id}`)).json()) as {
          title?: string;
        };
        return item.title;
      }),
    );
    expect(titles).toEqual(Array(4).fill(title));
    progress(`3. payload of /bench/items (${records.length} records), action created item ${id}`);
  });

  it('drains node two under load without a failed request, then makes it active again', async () => {
    let page = 0;
    // Pages from the cache and fresh listings (data reads), so both tiers move under load.
    const nextUrl = () =>
      ++page % 2 === 0
        ? `${stack.url}/bench/items`
        : `${stack.url}/items?q=${encodeURIComponent(`drain ${page}`)}`;
    const drainStarted = Date.now();
    const load = await measureLoadWhile(nextUrl, async () => {
      await sleep(1000);
      await cluster.docker('one', 'node', 'update', '--availability', 'drain', cluster.nodeIds.two);
      await until(
        'the tasks to leave node two',
        async () => {
          const tasks = [...(await stack.tasks('render')), ...(await stack.tasks('data'))];
          return tasks.length === 4 && tasks.every((task) => task.node === 'one')
            ? true
            : undefined;
        },
        120_000,
      );
      await stack.waitConverged();
      // Keep the load on a little longer: the gateway follows the new addresses.
      await sleep(3000);
    });
    await cluster.docker('one', 'node', 'update', '--availability', 'active', cluster.nodeIds.two);
    const failed = load.statuses.filter((status) => status !== 200);
    expect(load.statuses.length).toBeGreaterThan(40);
    expect(failed).toEqual([]);
    progress(
      `4. drain: tasks moved in ${((Date.now() - drainStarted) / 1000).toFixed(0)} s, ${load.statuses.length} requests, none failed, slowest ${load.slowestMs} ms`,
    );
  }, 240_000);

  it('sends traffic to render replicas scaled from 2 to 4 within 30 s, without touching the gateway', async () => {
    const [gateway] = await stack.tasks('gateway');
    const gatewayState = () =>
      cluster.docker(
        'one',
        'inspect',
        '-f',
        '{{.RestartCount}} {{.State.StartedAt}}',
        gateway!.container,
      );
    const gatewayBefore = await gatewayState();
    const before = new Set((await stack.tasks('render')).map((task) => task.id));
    const scaledAt = Date.now();
    await cluster.docker('one', 'service', 'scale', '-d', `${stack.service('render')}=4`);
    const added = await until(
      'two new render replicas',
      async () => {
        const fresh = (await stack.tasks('render')).filter((task) => !before.has(task.id));
        return fresh.length === 2 ? fresh : undefined;
      },
      30_000,
    );
    const runningAfter = Date.now() - scaledAt;
    // Node two was empty after the drain: spreading over zones puts both there.
    expect(added.map((task) => task.node)).toEqual(['two', 'two']);
    const answered = await newReplicasAnswering(stack, before, 2, scaledAt + 30_000);
    const elapsed = Date.now() - scaledAt;
    expect(answered.sort()).toEqual(added.map((task) => task.id).sort());
    expect(elapsed).toBeLessThan(30_000);
    // The same gateway container, never restarted: it found the replicas through DNS itself.
    expect((await stack.tasks('gateway')).map((task) => task.container)).toEqual([
      gateway!.container,
    ]);
    expect(await gatewayState()).toBe(gatewayBefore);
    progress(
      `5. scaled to 4: new replicas healthy after ${(runningAfter / 1000).toFixed(1)} s, both answered after ${(elapsed / 1000).toFixed(1)} s`,
    );
    await cluster.docker('one', 'service', 'scale', '-d', `${stack.service('render')}=2`);
  }, 120_000);

  it("keeps the relays' spool across the replacement of their tasks, and delivers what they had accepted", async () => {
    recorder.answerWith({ status: 503 });
    const sent = await Promise.all(
      Array.from({ length: 10 }, async (_, index) => {
        const { eventId, body } = errorEnvelope(DSN, `swarm spool ${index}`);
        const response = await fetch(`${stack.url}/monitoring`, { method: 'POST', body });
        return { eventId, status: response.status };
      }),
    );
    expect(sent.map((entry) => entry.status)).toEqual(Array(10).fill(200));
    // The relay has tried and failed: the envelopes wait in its spool.
    await recorder.waitFor((requests) =>
      requests.some((r) => r.status === 503 && r.url.startsWith('/api/11/')),
    );
    // Both replicas share the volume, a slot each; each is replaced in its task slot (and so
    // its host name), one after the other, stop-first.
    const before = new Set((await stack.tasks('relay')).map((task) => task.id));
    expect(before.size).toBe(2);
    await cluster.docker('one', 'service', 'update', '--force', '-d', stack.service('relay'));
    const after = await until(
      'both relay tasks replaced',
      async () => {
        const tasks = await stack.tasks('relay');
        return tasks.length === 2 && tasks.every((task) => !before.has(task.id))
          ? tasks
          : undefined;
      },
      150_000,
    );
    expect(after.map((task) => task.node)).toEqual(['one', 'one']);
    const delivered = (eventId: string) =>
      recorder.requests.some((r) => r.status === 200 && r.body.includes(eventId));
    expect(sent.filter(({ eventId }) => delivered(eventId))).toEqual([]);
    recorder.answerWith(undefined);
    await recorder.waitFor(() => sent.every(({ eventId }) => delivered(eventId)), 60_000);
    progress('6. both relay tasks replaced; all 10 spooled envelopes delivered by the new ones');
  }, 240_000);
});
