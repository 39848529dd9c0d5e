/**
 * Hostile bodies over real HTTP: each is refused by a per-part limit (header line, item, JSON
 * depth) while it streams in, with the relay's default limits, and nothing derived from it stays
 * in memory, in the spool or upstream. Bodies whose compressed data turns corrupt after the limit
 * prove the refusal came before the rest was inflated: reading it all would answer 400 (invalid
 * gzip) instead of 413. What happens to the connection of a refused body, and the bytes bodies
 * still arriving may hold, is in hostile-input-streaming.test.ts.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { relayPerTest } from './harness/relay-per-test.js';

const MIB = 1024 * 1024;
const DSN = 'https://hostile0key@o1.ingest.example.com/77';
const current = relayPerTest({ RELAY_DSNS: DSN });
const post = (body: Uint8Array | string, headers: Record<string, string> = {}) =>
  current.post('/monitoring', body, headers);

/** The status and error code of an answer (whose X-Sentry-Error must repeat the message). */
async function refusal(response: Response): Promise<{ status: number; code?: string }> {
  const body = (await response.json()) as { error?: { code: string; message: string } };
  expect(response.headers.get('x-sentry-error')).toBe(body.error?.message ?? null);
  return { status: response.status, code: body.error?.code };
}

/** Gzip whose first `validBytes` inflate cleanly, followed by bytes no inflater accepts. */
async function gzipThenCorrupt(prefix: string, filler: number, validBytes: number) {
  const gzip = createGzip();
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  gzip.write(prefix);
  gzip.write(Buffer.alloc(validBytes - Buffer.byteLength(prefix), filler));
  await new Promise<void>((resolve) => gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
  gzip.destroy();
  return Buffer.concat([...chunks, Buffer.alloc(64, 0xff)]);
}

async function spoolBytes(): Promise<number> {
  let total = 0;
  for (const name of await readdir(current.relay.spoolDir))
    total += (await stat(join(current.relay.spoolDir, name))).size;
  return total;
}

/** Nothing reached the upstream and the spool holds no envelope. */
async function expectNothingKept(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(current.upstream.received).toEqual([]);
  expect(await spoolBytes()).toBeLessThan(4096);
}

function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('the envelope header line', () => {
  it('refuses ~10 KB of gzip inflating to an 8 MiB header of nested [] with 413', async () => {
    await current.start();
    const depth = 4 * MIB;
    const header = `{"dsn":"${DSN}","x":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const body = gzipSync(`${header}\n{"type":"event"}\n{"message":"hi"}`);
    expect(body.length).toBeLessThan(20 * 1024);
    expect(await refusal(await post(body, { 'content-encoding': 'gzip' }))).toEqual({
      status: 413,
      code: 'RELAY_HEADER_TOO_LARGE',
    });
    await expectNothingKept();
  });

  it('stops inflating a header bomb at the header limit', async () => {
    await current.start();
    const body = await gzipThenCorrupt(`{"dsn":"${DSN}","x":`, 0x5b, 4 * MIB);
    expect(await refusal(await post(body, { 'content-encoding': 'gzip' }))).toEqual({
      status: 413,
      code: 'RELAY_HEADER_TOO_LARGE',
    });
  });

  it('keeps nothing of sixteen refused 8 MiB dsn strings', async () => {
    // The header limit is raised so that each dsn reaches the DSN lookup and is refused there.
    await current.start({ RELAY_MAX_HEADER_BYTES: String(9 * MIB) });
    const gc = exposeGc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 16; i += 1) {
      const dsn = `https://${i}${'k'.repeat(8 * MIB)}@o1.ingest.example.com/77`;
      const response = await post(`{"dsn":"${dsn}"}\n{"type":"event"}\n{"message":"hi"}`);
      expect(await refusal(response)).toEqual({ status: 403, code: 'RELAY_DSN_NOT_ALLOWED' });
    }
    // Polled: on a loaded machine the relay may still be finishing the last refusals.
    await expect
      .poll(() => (gc(), process.memoryUsage().heapUsed - before), { timeout: 10_000 })
      .toBeLessThan(32 * MIB);
  });
});

describe('items', () => {
  it('refuses a 3 MiB span container claiming 1,000,000 spans with 413', async () => {
    await current.start();
    const span = JSON.stringify({ span_id: 'a'.repeat(16), name: 'x'.repeat(1000) });
    const spans = Array.from({ length: 3100 }, () => span).join(',');
    const payload = `{"version":2,"items":[${spans}]}`;
    expect(payload.length).toBeGreaterThan(3 * MIB);
    const body =
      `{"dsn":"${DSN}"}\n` +
      `{"type":"span","item_count":1000000,"content_type":"application/vnd.sentry.items.span.v2+json"}\n` +
      payload;
    expect(await refusal(await post(body))).toEqual({ status: 413, code: 'RELAY_ITEM_TOO_LARGE' });
    await expectNothingKept();
  });

  it.each([
    ['with a length', (size: number) => `{"type":"hologram","length":${size}}`],
    ['without a length', () => '{"type":"hologram"}'],
  ])(
    'refuses an unknown item type inflating to 90 MiB (%s) with 413',
    async (_name, itemHeader) => {
      await current.start();
      const size = 90 * MIB;
      const body = gzipSync(
        Buffer.concat([
          Buffer.from(`{"dsn":"${DSN}"}\n${itemHeader(size)}\n`),
          Buffer.alloc(size, 0x20),
        ]),
      );
      expect(body.length).toBeLessThan(100 * 1024);
      expect(await refusal(await post(body, { 'content-encoding': 'gzip' }))).toEqual({
        status: 413,
        code: 'RELAY_ITEM_TOO_LARGE',
      });
      await expectNothingKept();
    },
  );

  it('stops inflating an unknown item at its limit', async () => {
    await current.start();
    const body = await gzipThenCorrupt(`{"dsn":"${DSN}"}\n{"type":"hologram"}\n`, 0x20, 4 * MIB);
    expect(await refusal(await post(body, { 'content-encoding': 'gzip' }))).toEqual({
      status: 413,
      code: 'RELAY_ITEM_TOO_LARGE',
    });
  });
});

describe('JSON payloads', () => {
  it('drops an event nested deeper than the JSON depth limit as invalid', async () => {
    await current.start();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    // The long message makes the relay rewrite the event: a parsed deep tree would not serialise.
    const event = `{"message":"${'m'.repeat(300)}","extra":{"tree":${deep}}}`;
    const response = await post(`{"dsn":"${DSN}"}\n{"type":"event"}\n${event}`);
    expect(response.status).toBe(200);
    await current.relay.relay.flushClientReports();
    await current.upstream.waitFor(1);
    const items = current.upstream.received.flatMap((received) => received.envelope?.items ?? []);
    expect(items.map((item) => item.type)).toEqual(['client_report']);
    const report = JSON.parse(Buffer.from(items[0]!.payload).toString()) as Record<string, unknown>;
    expect(report.discarded_events).toEqual([
      { reason: 'invalid', category: 'error', quantity: 1 },
    ]);
  });
});
