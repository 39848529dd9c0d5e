/**
 * Durability: the relay runs as a child process under load and is killed with SIGKILL; after a
 * restart on the same spool directory, every envelope the client got a 200 for reaches the
 * upstream (at-least-once: duplicates are allowed, losses are not).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startFakeUpstream } from './harness/fake-upstream.js';
import { killAllRelayProcesses, spawnRelay } from './harness/relay-process.js';

const DSN = 'https://crashkey@o1.ingest.example.com/5';
afterAll(killAllRelayProcesses);

it('loses nothing acknowledged when killed with SIGKILL under load', async () => {
  const spoolDir = await mkdtemp(join(tmpdir(), 'relay-crash-'));
  const upstream = await startFakeUpstream();
  const env = {
    RELAY_PORT: '0',
    RELAY_DSNS: DSN,
    RELAY_UPSTREAM: upstream.url,
    RELAY_SPOOL_DIR: spoolDir,
    RELAY_SPOOL_SEGMENT_BYTES: '65536', // several segments, so rotation and deletion are covered
    RELAY_RETRY_BASE: '20ms',
    RELAY_LOG_LEVEL: 'info',
    // One test client stands for many: its load must not meet the per-address request limit.
    RELAY_RATE_LIMIT_PER_ADDRESS: '0',
  };
  // The upstream holds every answer: at the kill, 64 envelopes are in flight and the rest
  // queued, so everything acknowledged must come back from the spool files.
  upstream.hold();
  const first = await spawnRelay(env);

  const acked = new Set<string>();
  let sequence = 0;
  const load = { running: true };
  const worker = async () => {
    while (load.running) {
      const id = (sequence += 1).toString(16).padStart(32, '0');
      const body = `{"event_id":"${id}","dsn":"${DSN}"}\n{"type":"event"}\n{"message":"load ${id}"}\n{"type":"attachment","length":4}\n\u0000\n\r\n`;
      try {
        const response = await fetch(`${first.url}/monitoring`, { method: 'POST', body });
        if (response.status === 200) acked.add(id);
        else await response.arrayBuffer();
      } catch {
        return; // the relay died mid-request: not acknowledged
      }
    }
  };
  const workers = Array.from({ length: 8 }, worker);
  // Kill once 64 are in flight (not after a fixed time: on a loaded machine that can be too
  // early), with the load still running so more are being spooled at that moment.
  await upstream.waitFor(64, 10_000);
  await new Promise((resolve) => setTimeout(resolve, 200));
  first.child.kill('SIGKILL');
  load.running = false;
  await Promise.all(workers);
  await first.exited;
  expect(acked.size).toBeGreaterThan(50);

  const inFlightAtKill = upstream.received.length;
  upstream.received.splice(0); // only what the restarted relay delivers counts
  upstream.release();
  const delivered = (): Set<string> =>
    new Set(upstream.received.map((r) => String(r.envelope?.header.event_id)));
  const second = await spawnRelay(env);
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && [...acked].some((id) => !delivered().has(id))) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const missing = [...acked].filter((id) => !delivered().has(id));
  expect(missing).toEqual([]);
  expect(inFlightAtKill).toBe(64);
  // Payload bytes survived intact, including the binary attachment.
  const sample = upstream.received.find((r) => r.envelope?.items.length === 2);
  expect([...(sample?.envelope?.items[1]?.payload ?? [])]).toEqual([0, 10, 13, 10]);

  second.child.kill('SIGTERM');
  await second.exited;
  await upstream.close();
  expect(upstream.problems).toEqual([]);
  await rm(spoolDir, { recursive: true, force: true });
}, 60_000);

it('exits 0 on SIGTERM and keeps unsent envelopes for the next start', async () => {
  const spoolDir = await mkdtemp(join(tmpdir(), 'relay-term-'));
  const upstream = await startFakeUpstream();
  const env = {
    RELAY_PORT: '0',
    RELAY_DSNS: DSN,
    RELAY_UPSTREAM: upstream.url,
    RELAY_SPOOL_DIR: spoolDir,
    RELAY_SHUTDOWN_TIMEOUT: '300ms',
  };
  upstream.hold(); // in-flight sends never finish before the shutdown timeout
  const first = await spawnRelay(env);
  const ids = Array.from({ length: 100 }, (_, i) => (i + 1).toString(16).padStart(32, '0'));
  for (const id of ids) {
    const body = `{"event_id":"${id}","dsn":"${DSN}"}\n{"type":"event"}\n{"message":"term ${id}"}`;
    expect((await fetch(`${first.url}/monitoring`, { method: 'POST', body })).status).toBe(200);
  }
  first.child.kill('SIGTERM');
  expect(await first.exited).toBe(0);
  upstream.received.splice(0);
  upstream.release();

  const second = await spawnRelay(env);
  const deadline = Date.now() + 10_000;
  const delivered = () =>
    new Set(upstream.received.map((r) => String(r.envelope?.header.event_id)));
  while (Date.now() < deadline && ids.some((id) => !delivered().has(id))) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(ids.filter((id) => !delivered().has(id))).toEqual([]);
  second.child.kill('SIGTERM');
  await second.exited;
  await upstream.close();
  expect(upstream.problems).toEqual([]);
  await rm(spoolDir, { recursive: true, force: true });
}, 30_000);
