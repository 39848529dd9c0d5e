/**
 * Three relay replicas, each on its own spool, under one client's load while the upstream is
 * stalled, so each holds a backlog. One gets SIGTERM: it stops accepting, hands everything it
 * holds to the upstream within its grace period and exits 0, without ever being started again.
 * One gets SIGKILL: restarted on its spool, it delivers what it had acknowledged. The third
 * keeps serving. Counted at the upstream: no acknowledged envelope is missing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startFakeUpstream } from './harness/fake-upstream.js';
import { killAllRelayProcesses, spawnRelay, type RelayProcess } from './harness/relay-process.js';
import { loadReplicas } from './harness/replica-load.js';

const DSN = 'https://handoverkey@o1.ingest.example.com/9';
const spoolDirs: string[] = [];

afterAll(async () => {
  killAllRelayProcesses();
  await Promise.all(spoolDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** One replica: its spool directory, its current process, what it acknowledged. */
interface Replica {
  readonly name: string;
  readonly spoolDir: string;
  process: RelayProcess | undefined;
  readonly acked: Set<string>;
}

it('loses no acknowledged envelope when one replica is stopped and another killed', async () => {
  const upstream = await startFakeUpstream();
  let handoverMs = 0;
  const envOf = (spoolDir: string) => ({
    RELAY_PORT: '0',
    RELAY_DSNS: DSN,
    RELAY_UPSTREAM: upstream.url,
    RELAY_SPOOL_DIR: spoolDir,
    RELAY_RETRY_BASE: '20ms',
    RELAY_SHUTDOWN_TIMEOUT: '10s',
    // One test client stands for many: its load must not meet the per-address request limit.
    RELAY_RATE_LIMIT_PER_ADDRESS: '0',
  });
  const replicas: Replica[] = [];
  for (const name of ['stopped', 'killed', 'serving']) {
    const spoolDir = await mkdtemp(join(tmpdir(), `relay-${name}-`));
    spoolDirs.push(spoolDir);
    replicas.push({ name, spoolDir, process: await spawnRelay(envOf(spoolDir)), acked: new Set() });
  }
  const [stopped, killed, serving] = replicas as [Replica, Replica, Replica];

  // The upstream answers nothing yet: every replica's spool fills with a backlog.
  upstream.hold();
  const load = loadReplicas(replicas, DSN);
  const backlog = () => Math.min(...replicas.map((replica) => replica.acked.size));
  while (backlog() < 150) await new Promise((resolve) => setTimeout(resolve, 50));

  const signalledAt = performance.now();
  const stoppedExit = stopped.process!.exited.then((code) => {
    handoverMs = performance.now() - signalledAt;
    return code;
  });
  stopped.process!.child.kill('SIGTERM');
  killed.process!.child.kill('SIGKILL');
  stopped.process = undefined;
  const killedProcess = killed.process!;
  killed.process = undefined;
  upstream.release();
  await killedProcess.exited;

  // The stopped replica is never started again: what it acknowledged left before it exited.
  expect(await stoppedExit).toBe(0);
  // Well inside RELAY_SHUTDOWN_TIMEOUT: no connection kept it waiting for the deadline.
  expect(handoverMs).toBeLessThan(8000);
  const delivered = () =>
    new Set(upstream.received.map((r) => String(r.envelope?.header.event_id)));
  const handedOver = delivered();
  expect([...stopped.acked].filter((id) => !handedOver.has(id))).toEqual([]);

  // The killed one comes back on its own spool, as a StatefulSet pod or a Swarm task would.
  const restartedAt = performance.now();
  killed.process = await spawnRelay(envOf(killed.spoolDir));
  const servingAgainMs = performance.now() - restartedAt;
  await new Promise((resolve) => setTimeout(resolve, 500));
  await load.stop();

  const everything = replicas.flatMap((replica) => [...replica.acked]);
  const missing = () => {
    const arrived = delivered();
    return everything.filter((id) => !arrived.has(id));
  };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && missing().length > 0)
    await new Promise((resolve) => setTimeout(resolve, 100));
  expect(missing()).toEqual([]);
  console.info(
    `relay replicas: the stopped one handed over ${stopped.acked.size} envelopes and exited ` +
      `${Math.round(handoverMs)} ms after SIGTERM; the killed one served again ` +
      `${Math.round(servingAgainMs)} ms after its restart and delivered what it had acknowledged; ` +
      `${everything.length} acknowledged in all, 0 missing at the upstream`,
  );
  expect(serving.acked.size).toBeGreaterThan(150);

  for (const replica of [killed, serving]) {
    replica.process!.child.kill('SIGTERM');
    expect(await replica.process!.exited).toBe(0);
  }
  await upstream.close();
  expect(upstream.problems).toEqual([]);
}, 90_000);
