/**
 * Three relay replicas on ONE spool volume (compose's `--scale relay=3`, Swarm tasks on one
 * node), each leasing its own slot under it. Under one client's load with the upstream stalled,
 * so each holds a backlog: one is killed and restarted in its "container" (same instance id) and
 * takes its slot back at once; another is killed for good, and a running replica sends what it
 * left once its lease goes stale. Counted at the upstream: no acknowledged envelope is missing,
 * and every slot ends empty.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startFakeUpstream } from './harness/fake-upstream.js';
import { killAllRelayProcesses, spawnRelay, type RelayProcess } from './harness/relay-process.js';
import { loadReplicas } from './harness/replica-load.js';

const DSN = 'https://sharedspool@o1.ingest.example.com/9';
// Longer than a restart takes on a loaded machine, so the restarted replica's lease is still fresh.
const LEASE_STALE_MS = 10_000;
let root = '';

afterAll(async () => {
  killAllRelayProcesses();
  if (root) await rm(root, { recursive: true, force: true });
});

interface Replica {
  readonly name: string;
  process: RelayProcess | undefined;
  readonly acked: Set<string>;
}

/** A replica on the shared spool root, named `name`; one test client stands for many. */
const sharedSpoolEnv = (upstream: string, name: string, settings: Record<string, string>) => ({
  RELAY_PORT: '0',
  RELAY_DSNS: DSN,
  RELAY_UPSTREAM: upstream,
  RELAY_SPOOL_DIR: root,
  RELAY_SPOOL_SHARED: 'true',
  RELAY_INSTANCE_ID: name,
  RELAY_RATE_LIMIT_PER_ADDRESS: '0',
  ...settings,
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Slot directory → the instance that leased it last. */
async function owners(): Promise<Map<string, string>> {
  const slots = (await readdir(root)).filter((name) => /^slot-\d+$/.test(name)).sort();
  const entries = await Promise.all(
    slots.map(async (slot) => [slot, await readFile(join(root, slot, 'owner'), 'utf8')] as const),
  );
  return new Map(entries);
}

const segmentsIn = async (slot: string) =>
  (await readdir(join(root, slot))).filter((name) => name.startsWith('segment-'));

it('shares one spool volume: a restarted replica takes its slot back, a gone one is sent by the others', async () => {
  root = await mkdtemp(join(tmpdir(), 'relay-shared-spool-'));
  const upstream = await startFakeUpstream();
  const envOf = (name: string) =>
    sharedSpoolEnv(upstream.url, name, {
      RELAY_SPOOL_LEASE_STALE: `${LEASE_STALE_MS}ms`,
      RELAY_RETRY_BASE: '20ms',
      RELAY_SHUTDOWN_TIMEOUT: '10s',
    });
  const replicas: Replica[] = [];
  for (const name of ['steady', 'restarted', 'gone'])
    replicas.push({ name, process: await spawnRelay(envOf(name)), acked: new Set() });
  const [steady, restarted, gone] = replicas as [Replica, Replica, Replica];
  expect([...(await owners()).values()].sort()).toEqual(['gone', 'restarted', 'steady']);

  upstream.hold();
  const load = loadReplicas(replicas, DSN);
  while (Math.min(...replicas.map((replica) => replica.acked.size)) < 100) await sleep(50);

  const killedAt = performance.now();
  for (const replica of [restarted, gone]) {
    const killed = replica.process!;
    replica.process = undefined;
    killed.child.kill('SIGKILL');
    await killed.exited;
  }
  const slotsBefore = await owners();
  // Restarted in its container: its lease still looks fresh, yet it is its own to take back.
  const restartedAt = performance.now();
  restarted.process = await spawnRelay(envOf('restarted'));
  const servingAgainMs = performance.now() - restartedAt;
  expect(servingAgainMs, 'restarted within its lease').toBeLessThan(LEASE_STALE_MS);
  expect(await owners()).toEqual(slotsBefore);
  upstream.release();

  const everything = () => replicas.flatMap((replica) => [...replica.acked]);
  const missing = () => {
    const arrived = new Set(upstream.received.map((r) => String(r.envelope?.header.event_id)));
    return everything().filter((id) => !arrived.has(id));
  };
  await sleep(500);
  await load.stop();

  // The gone replica's backlog leaves through another one, after its lease goes stale.
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline && missing().length > 0) await sleep(100);
  const goneSentMs = performance.now() - killedAt;
  expect(missing()).toEqual([]);
  const goneSlot = [...slotsBefore].find(([, owner]) => owner === 'gone')![0];
  while (Date.now() < deadline && (await segmentsIn(goneSlot)).length > 0) await sleep(100);
  expect(await segmentsIn(goneSlot)).toEqual([]);

  for (const replica of [steady, restarted]) {
    replica.process!.child.kill('SIGTERM');
    expect(await replica.process!.exited).toBe(0);
  }
  // Stopped with nothing pending: every slot is empty and free for whoever comes next.
  for (const slot of slotsBefore.keys()) expect(await segmentsIn(slot)).toEqual([]);
  expect((await readdir(root)).filter((name) => name.endsWith('.lock'))).toEqual([]);
  console.info(
    `shared spool: ${everything().length} acknowledged by three replicas on one volume, 0 missing; ` +
      `the restarted one served again ${Math.round(servingAgainMs)} ms after its start on its own ` +
      `slot; the gone one's ${gone.acked.size} envelopes were all upstream ${Math.round(goneSentMs)} ms ` +
      `after it was killed (lease stale after ${LEASE_STALE_MS} ms)`,
  );
  await upstream.close();
  expect(upstream.problems).toEqual([]);
}, 120_000);

it('stops a replica that stalled past its lease instead of letting it write into a slot another took', async () => {
  root = await mkdtemp(join(tmpdir(), 'relay-shared-spool-'));
  const upstream = await startFakeUpstream();
  const envOf = (name: string, retryBase: string) =>
    sharedSpoolEnv(upstream.url, name, {
      RELAY_SPOOL_LEASE_STALE: '2s',
      RELAY_RETRY_BASE: retryBase,
    });
  // The first answers are 503s: the stalled replica backs off for a minute and keeps its backlog.
  upstream.script(...Array.from({ length: 20 }, () => ({ status: 503 })));
  const stalled = await spawnRelay(envOf('stalled', '60s'));
  const healthy = await spawnRelay(envOf('healthy', '20ms'));
  const acked: string[] = [];
  for (let i = 0; i < 20; i += 1) {
    const id = (i + 1).toString(16).padStart(32, '0');
    const body = `{"event_id":"${id}","dsn":"${DSN}"}\n{"type":"event"}\n{}`;
    const response = await fetch(`${stalled.url}/monitoring`, { method: 'POST', body });
    await response.arrayBuffer();
    if (response.status === 200) acked.push(id);
  }
  expect(acked).toHaveLength(20);
  await upstream.waitFor(1);
  await sleep(200);

  // Frozen (a paused container, a host stalled on I/O) for longer than its lease: the healthy
  // replica takes its slot and sends the backlog. Whatever arrives from now on came from it.
  stalled.child.kill('SIGSTOP');
  const frozenAt = upstream.received.length;
  const stalledSlot = [...(await owners())].find(([, owner]) => owner === 'stalled')![0];
  const sentByHealthy = () =>
    new Set(upstream.received.slice(frozenAt).map((r) => String(r.envelope?.header.event_id)));
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && acked.some((id) => !sentByHealthy().has(id))) await sleep(100);
  expect(acked.filter((id) => !sentByHealthy().has(id))).toEqual([]);

  // Woken, it finds its lease gone and exits before writing anything more.
  stalled.child.kill('SIGCONT');
  expect(await stalled.exited).toBe(70);
  while (Date.now() < deadline && (await segmentsIn(stalledSlot)).length > 0) await sleep(100);
  expect(await segmentsIn(stalledSlot)).toEqual([]);
  healthy.child.kill('SIGTERM');
  expect(await healthy.exited).toBe(0);
  await upstream.close();
}, 60_000);
