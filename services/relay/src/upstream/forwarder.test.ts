/**
 * The forwarder over a real file spool, with the upstream replaced by a scripted `send` (the only
 * test double: the reporting service is outside the system). Covers the age bound, late rate
 * limits, 413, the attempt budget, back-off per destination with probing, and spool read errors.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDsnRegistry } from '../dsn/dsn-registry.js';
import type { DropReason } from '../outcomes/drop-reason.js';
import { createRateLimitState } from '../rate-limits/rate-limit-state.js';
import { segmentFileName } from '../spool/spool-fs.js';
import { createSpool, type Spool, type SpoolEntry } from '../spool/spool.js';
import { faultyFs, tempDirs, type FaultyFs } from '../spool/test-support.js';
import { createForwarder } from './forwarder.js';
import type { UpstreamResponse } from './http-send.js';
import type { RetryPolicy } from './retry-policy.js';

const DSNS = ['https://keya@o1.ingest.example.com/3', 'https://keyb@o1.ingest.example.com/4'];
const A = '3:keya';
const B = '4:keyb';
const temp = tempDirs('forwarder-test-');
const forwarders: Array<{ drain(ms: number): Promise<boolean> }> = [];
const spools: Spool[] = [];
afterEach(async () => {
  for (const forwarder of forwarders.splice(0)) await forwarder.drain(1000);
  for (const spool of spools.splice(0)) await spool.close();
  await temp.cleanup();
});

const answer = (status: number, rateLimitsHeader?: string): UpstreamResponse => ({
  status,
  rateLimitsHeader,
  retryAfterHeader: undefined,
});
const keyOfUrl = (url: string) => (url.includes('/api/3/') ? A : B);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Options {
  readonly respond?: (key: string, body: string) => Promise<UpstreamResponse>;
  readonly retry?: Partial<RetryPolicy>;
  readonly maxInFlight?: number;
  readonly now?: () => number;
  readonly faults?: FaultyFs;
  /** Envelopes spooled before the forwarder exists, and a chance to damage the files. */
  readonly before?: (spool: Spool, dir: string) => Promise<void>;
}

async function setup(options: Options = {}) {
  const dir = await temp.make();
  const spool = createSpool({
    dir,
    maxBytes: 1 << 20,
    projectShare: 1,
    segmentBytes: 1 << 20,
    memoryBytes: options.faults || options.before ? 0 : 1 << 20,
    fsync: false,
    ...(options.faults ? { fs: options.faults.fs } : {}),
  });
  spools.push(spool);
  await spool.open();
  await options.before?.(spool, dir);
  const now = options.now ?? Date.now;
  const sent: Array<[string, string]> = [];
  const completed: SpoolEntry[] = [];
  const complete = spool.complete.bind(spool);
  spool.complete = (entry) => (completed.push(entry), complete(entry));
  const inFlight = new Map<string, number>();
  const peak = new Map<string, number>();
  const drops: Array<[DropReason, string, number]> = [];
  const errors: string[] = [];
  const rateLimits = createRateLimitState();
  const respond = options.respond ?? (async () => answer(200));
  const forwarder = createForwarder({
    spool,
    async send(target, bytes) {
      const key = keyOfUrl(target.url);
      const text = new TextDecoder().decode(bytes);
      sent.push([key, text]);
      inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
      peak.set(key, Math.max(peak.get(key) ?? 0, inFlight.get(key)!));
      try {
        return await respond(key, text);
      } finally {
        inFlight.set(key, inFlight.get(key)! - 1);
      }
    },
    registry: createDsnRegistry(DSNS, { upstreamKind: 'sentry', clientName: 'test/1' }),
    rateLimits,
    outcomes: { record: (_dsn, reason, category, n) => void drops.push([reason, category, n]) },
    observer: { onResponse: () => undefined, onError: (message) => void errors.push(message) },
    maxInFlight: options.maxInFlight ?? 2,
    maxAgeMs: 60_000,
    retry: { baseMs: 1, maxMs: 2, maxAttempts: 2, ...options.retry },
    now,
    random: () => 1,
  });
  forwarders.push(forwarder);
  const enqueue = (key: string, body: string) => spool.append(key, encode(body), now());
  return { spool, forwarder, sent, completed, drops, errors, rateLimits, peak, enqueue };
}

const event = (n: number) => `{"n":${n}}\n{"type":"event"}\n{}`;
const encode = (text: string) => new TextEncoder().encode(text);

describe('createForwarder', () => {
  it('drops envelopes older than the spool age bound instead of sending them', async () => {
    const { forwarder, sent, completed, drops } = await setup({
      now: () => 120_000,
      before: async (spool) => void (await spool.append(A, encode(event(1)), 0)),
    });
    forwarder.pump();
    await expect.poll(() => completed.length, { timeout: 10_000 }).toBe(1);
    expect(sent).toEqual([]);
    expect(drops).toEqual([['spool-expired', 'error', 1]]);
  });

  it('removes items that became rate limited after spooling', async () => {
    const { sent, drops, rateLimits, enqueue } = await setup();
    rateLimits.update(A, { rateLimitsHeader: '60:error' }, Date.now());
    await enqueue(A, '{}\n{"type":"event"}\n{}\n{"type":"session"}\n{}');
    await expect.poll(() => sent, { timeout: 10_000 }).toEqual([[A, '{}\n{"type":"session"}\n{}']]);
    expect(drops).toEqual([['rate-limited', 'error', 1]]);
  });

  it('learns limits from responses, but not from a 413', async () => {
    const answers = [answer(413, '60:error'), answer(200, '30:span')];
    const { rateLimits, completed, enqueue } = await setup({
      respond: async () => answers.shift()!,
    });
    await enqueue(A, event(1));
    await expect.poll(() => completed.length, { timeout: 10_000 }).toBe(1); // the 413 is final
    await enqueue(A, event(2)); // an error item: dropped unsent had the 413's limit been learned
    await expect
      .poll(() => Object.keys(rateLimits.get(A, Date.now())), { timeout: 10_000 })
      .toEqual(['span']);
  });

  it('retries a 5xx, then gives up after the attempt budget and reports network_error', async () => {
    const { completed, drops, sent, enqueue } = await setup({ respond: async () => answer(503) });
    await enqueue(A, event(1));
    await expect.poll(() => completed.length, { timeout: 10_000 }).toBe(1);
    expect(sent).toHaveLength(2);
    expect(drops).toEqual([['upstream-unreachable', 'error', 1]]);
  });
});

describe('back-off per destination', () => {
  it('pauses only the destination that fails; the others are delivered at once', async () => {
    const { sent, completed, enqueue } = await setup({
      respond: async (key) => answer(key === A ? 503 : 200),
      // A's pause outlasts the poll below, so B cannot be waiting behind it and still pass.
      retry: { baseMs: 60_000, maxMs: 60_000, maxAttempts: 5 },
    });
    for (let n = 0; n < 3; n += 1) {
      await enqueue(A, event(n));
      await enqueue(B, event(n));
    }
    await expect
      .poll(() => completed.map((entry) => entry.dsnKey), { timeout: 10_000 })
      .toEqual([B, B, B]);
    expect(sent.filter(([key]) => key === A).length).toBeLessThanOrEqual(2); // A1 (+ A2 in flight)
  });

  it('counts a burst of failures of sends already in flight once: a blip costs one base delay', async () => {
    let failing = 8;
    let arrived = 0;
    let allInFlight = (): void => undefined;
    const burst = new Promise<void>((resolve) => (allInFlight = resolve));
    const { completed, enqueue } = await setup({
      maxInFlight: 8,
      respond: async () => {
        // All eight are in flight when the first failure comes back, however slow the disk.
        if (++arrived === 8) allInFlight();
        if (arrived <= 8) await burst;
        return answer(failing-- > 0 ? 503 : 200);
      },
      retry: { baseMs: 50, maxMs: 60_000, maxAttempts: 12 },
    });
    await Promise.all(Array.from({ length: 8 }, (_, n) => enqueue(A, event(n))));
    await burst;
    const started = Date.now();
    while (completed.length < 8 && Date.now() - started < 5000) await sleep(5);
    expect(completed).toHaveLength(8);
    expect(Date.now() - started).toBeLessThan(1000); // eight counted failures would pause for 6 s
  });

  it('probes a paused destination with a single send, then resumes it fully', async () => {
    let phase: 'fail' | 'probe' | 'ok' = 'fail';
    let releaseProbe = (): void => undefined;
    const { peak, completed, sent, enqueue } = await setup({
      maxInFlight: 4,
      respond: async () => {
        if (phase === 'fail') return answer(503);
        if (phase === 'probe') await new Promise<void>((resolve) => (releaseProbe = resolve));
        return answer(200);
      },
      retry: { baseMs: 40, maxMs: 40, maxAttempts: 12 },
    });
    await enqueue(A, event(0));
    await expect.poll(() => sent.length, { timeout: 10_000 }).toBe(1); // answered 503: A paused
    phase = 'probe';
    peak.clear();
    for (let n = 1; n < 8; n += 1) await enqueue(A, event(n));
    // The pause ends: one probe goes out; a little longer shows the rest wait behind it.
    await expect.poll(() => sent.length, { timeout: 10_000 }).toBe(2);
    await sleep(50);
    expect(peak.get(A)).toBe(1);
    expect(sent).toHaveLength(2);
    phase = 'ok';
    releaseProbe();
    await expect.poll(() => completed.length, { timeout: 10_000 }).toBe(8);
    expect(peak.get(A)).toBeGreaterThan(1);
  });

  it('still wakes when the pause ends between refusing a send and setting the timer', async () => {
    // A busy machine: every clock read is 5 ms after the one before, so the forwarder can find
    // the destination paused and, reading the clock again to set its timer, the pause over.
    let clock = 1_000;
    const { sent, completed, enqueue } = await setup({
      now: () => (clock += 5),
      respond: async () => answer(sent.length === 1 ? 503 : 200),
      retry: { baseMs: 10, maxMs: 10, maxAttempts: 3 },
    });
    await enqueue(A, event(1));
    await expect.poll(() => completed.length, { timeout: 5000 }).toBe(1);
    expect(sent).toHaveLength(2);
  });
});

describe('spool read errors', () => {
  it('back off and count attempts instead of retrying at once, then give up', async () => {
    const faults = faultyFs();
    faults.failReads(1_000_000);
    const { completed, sent, errors, enqueue } = await setup({
      faults,
      retry: { baseMs: 20, maxMs: 40, maxAttempts: 4 },
    });
    await enqueue(A, event(1));
    await expect.poll(() => completed.length, { timeout: 10_000 }).toBe(1);
    expect(faults.counts.reads).toBe(4);
    expect(sent).toEqual([]);
    expect(errors).toEqual([
      expect.stringMatching(/^giving up after 4 attempts: spool read failed: EIO/),
    ]);
  });

  it('deliver the envelope once the disk reads again', async () => {
    const faults = faultyFs();
    faults.failReads(2);
    const { sent, enqueue } = await setup({
      faults,
      retry: { baseMs: 20, maxMs: 40, maxAttempts: 4 },
    });
    const entry = (await enqueue(A, event(1))) as SpoolEntry;
    // Two failed reads, then the send: polled, as a loaded machine stretches the back-off.
    await expect.poll(() => sent, { timeout: 5000 }).toEqual([[A, event(1)]]);
    expect(entry.attempts).toBe(2);
  });

  it('drops an envelope whose record is corrupted on disk instead of sending it', async () => {
    const { sent, completed, errors, forwarder } = await setup({
      async before(spool, dir) {
        const entry = (await spool.append(A, encode(event(1)), Date.now())) as SpoolEntry;
        await spool.append(B, encode(event(2)), Date.now());
        const path = join(dir, segmentFileName(0));
        const file = await readFile(path);
        file.writeUInt8(file.readUInt8(entry.bodyOffset) ^ 0xff, entry.bodyOffset);
        await writeFile(path, file);
      },
    });
    forwarder.pump();
    await expect
      .poll(() => completed.map((entry) => entry.dsnKey).sort(), { timeout: 10_000 })
      .toEqual([A, B]);
    expect(sent).toEqual([[B, event(2)]]);
    expect(errors).toEqual([expect.stringMatching(/^dropping an unreadable envelope/)]);
  });
});
