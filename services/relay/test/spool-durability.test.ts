/**
 * The spool through the running relay: one DSN flooding the spool gets 429 with Sentry's
 * rate-limit headers while another DSN is still accepted; a failed spool write answers 500 and
 * costs nothing afterwards; after a restart, a corrupted record in the middle of a segment loses
 * only itself, and the relay logs what it skipped.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirs } from '../src/spool/test-support.js';
import { relayOnFaultySpool } from './harness/faulty-spool-relay.js';
import { startFakeUpstream, type FakeUpstream } from './harness/fake-upstream.js';
import { startRelay, type RelayUnderTest } from './harness/relay-under-test.js';

const FLOOD = 'https://floodkey@o1.ingest.example.com/11';
const HONEST = 'https://honestkey@o1.ingest.example.com/12';
const temp = tempDirs('relay-durability-');
const cleanups: Array<() => Promise<unknown>> = [];
let upstream: FakeUpstream;

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await temp.cleanup();
  if (upstream.problems.length > 0)
    throw new Error(`upstream problems: ${upstream.problems.join('; ')}`);
});

async function relayWith(env: Record<string, string>, spoolDir?: string): Promise<RelayUnderTest> {
  const relay = await startRelay(
    upstream,
    { RELAY_DSNS: `${FLOOD},${HONEST}`, ...env },
    { spoolDir },
  );
  cleanups.push(() => relay.relay.shutdown(100));
  return relay;
}

const envelope = (dsn: string, id: number) =>
  `{"event_id":"${String(id).padStart(32, '0')}","dsn":"${dsn}"}\n{"type":"event"}\n{"message":"${'m'.repeat(900)} ${id}"}`;

const post = (relay: RelayUnderTest, body: string) =>
  fetch(`${relay.url}/monitoring`, {
    method: 'POST',
    body,
    headers: { origin: 'https://app.example' },
  });

describe('per-DSN share of the spool', () => {
  it('answers a flooding DSN 429 with Retry-After and X-Sentry-Rate-Limits, others 200', async () => {
    upstream = await startFakeUpstream();
    upstream.hold(); // nothing is delivered: everything accepted stays in the spool
    cleanups.push(() => upstream.close());
    const relay = await relayWith({
      RELAY_SPOOL_MAX_BYTES: '20000',
      RELAY_SPOOL_PROJECT_SHARE: '0.5',
    });

    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let id = 1; id <= 40 && !refused; id += 1) {
      const response = await post(relay, envelope(FLOOD, id));
      if (response.status === 200) statuses.push(200);
      else refused = response;
    }
    expect(statuses.length).toBeGreaterThan(3);
    expect(refused?.status).toBe(429);
    expect(refused?.headers.get('retry-after')).toBe('60');
    expect(refused?.headers.get('x-sentry-rate-limits')).toBe('60::key:spool_share');
    expect(refused?.headers.get('access-control-expose-headers')).toMatch(/retry-after/i);
    expect(await refused?.json()).toEqual({
      error: { code: 'RELAY_SPOOL_SHARE_EXCEEDED', message: expect.any(String) },
    });
    for (let id = 1; id <= statuses.length; id += 1) {
      expect((await post(relay, envelope(HONEST, id))).status).toBe(200);
    }
  });
});

describe('spool write failures', () => {
  it('answer 500 RELAY_SPOOL_WRITE_FAILED without internals, and the next envelope is accepted', async () => {
    upstream = await startFakeUpstream();
    cleanups.push(() => upstream.close());
    const dir = await temp.make();
    const { relay, faults } = await relayOnFaultySpool(HONEST, upstream.url, dir);
    cleanups.push(() => relay.shutdown(100));
    faults.spaceLeft = 100;
    const failed = await relay.app.inject({
      method: 'POST',
      url: '/monitoring',
      payload: envelope(HONEST, 1),
    });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({
      error: {
        code: 'RELAY_SPOOL_WRITE_FAILED',
        message: 'the envelope could not be written to the spool',
      },
    });
    faults.spaceLeft = Number.POSITIVE_INFINITY;
    const accepted = await relay.app.inject({
      method: 'POST',
      url: '/monitoring',
      payload: envelope(HONEST, 2),
    });
    expect(accepted.statusCode).toBe(200);
    await upstream.waitFor(1);
    expect(upstream.received.map((r) => r.envelope?.header.event_id)).toEqual([
      String(2).padStart(32, '0'),
    ]);
  });
});

describe('recovery after a restart', () => {
  it('delivers every envelope but a corrupted one and logs what it skipped', async () => {
    upstream = await startFakeUpstream();
    cleanups.push(() => upstream.close());
    const spoolDir = await temp.make();
    upstream.hold();
    const first = await relayWith({}, spoolDir);
    for (let id = 1; id <= 5; id += 1)
      expect((await post(first, envelope(HONEST, id))).status).toBe(200);
    await upstream.waitFor(5);
    await first.relay.shutdown(100); // the held sends are cut: all five stay spooled
    upstream.received.splice(0);
    upstream.release();

    const [segment] = (await readdir(spoolDir)).filter((name) => name.startsWith('segment-'));
    const path = join(spoolDir, segment!);
    const file = await readFile(path);
    const third = file.indexOf(`"event_id":"${String(3).padStart(32, '0')}"`);
    file.writeUInt8(file.readUInt8(third) ^ 0x20, third);
    await writeFile(path, file);

    const second = await relayWith({}, spoolDir);
    await upstream.waitFor(4);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const ids = upstream.received.map((r) => Number(r.envelope?.header.event_id));
    expect(ids.sort()).toEqual([1, 2, 4, 5]);
    const logged = second.logs.find(
      (line) => line.msg === 'spool recovery skipped corrupted records',
    );
    expect(logged).toMatchObject({ recovered: 4, skippedRegions: 1 });
    const expected = 'relay logged an error: spool recovery skipped corrupted records';
    expect(upstream.problems).toEqual([expected]);
    upstream.problems.splice(0);
  });
});
