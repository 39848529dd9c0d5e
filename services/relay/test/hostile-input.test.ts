/**
 * Hostile bodies over real HTTP: each is refused by a per-part limit while it streams in, with
 * the relay's default limits, and nothing derived from it stays in memory, in the spool or
 * upstream. Bodies whose compressed data turns corrupt after the limit prove the refusal came
 * before the rest was inflated: reading it all would answer 400 (invalid gzip) instead of 413.
 */
import { readdir, stat } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './harness/fake-upstream.js';
import { startRelay, type RelayUnderTest } from './harness/relay-under-test.js';

const MIB = 1024 * 1024;
const DSN = 'https://hostile0key@o1.ingest.example.com/77';
let upstream: FakeUpstream | undefined;
let relay: RelayUnderTest | undefined;

async function setup(env: Record<string, string> = {}): Promise<void> {
  upstream = await startFakeUpstream();
  relay = await startRelay(upstream, { RELAY_DSNS: DSN, ...env });
}

afterEach(async () => {
  await relay?.stop();
  await upstream?.close();
  const problems = upstream?.problems ?? [];
  relay = undefined;
  upstream = undefined;
  if (problems.length > 0) throw new Error(`upstream problems: ${problems.join('; ')}`);
});

function post(body: Uint8Array | string, headers: Record<string, string> = {}) {
  return fetch(`${relay!.url}/monitoring`, { method: 'POST', body, headers });
}

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
  for (const name of await readdir(relay!.spoolDir))
    total += (await stat(join(relay!.spoolDir, name))).size;
  return total;
}

/** Nothing reached the upstream and the spool holds no envelope. */
async function expectNothingKept(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(upstream!.received).toEqual([]);
  expect(await spoolBytes()).toBeLessThan(4096);
}

function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

describe('the envelope header line', () => {
  it('refuses ~10 KB of gzip inflating to an 8 MiB header of nested [] with 413', async () => {
    await setup();
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
    await setup();
    const body = await gzipThenCorrupt(`{"dsn":"${DSN}","x":`, 0x5b, 4 * MIB);
    expect(await refusal(await post(body, { 'content-encoding': 'gzip' }))).toEqual({
      status: 413,
      code: 'RELAY_HEADER_TOO_LARGE',
    });
  });

  it('keeps nothing of sixteen refused 8 MiB dsn strings', async () => {
    // The header limit is raised so that each dsn reaches the DSN lookup and is refused there.
    await setup({ RELAY_MAX_HEADER_BYTES: String(9 * MIB) });
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
    await setup();
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
      await setup();
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
    await setup();
    const body = await gzipThenCorrupt(`{"dsn":"${DSN}"}\n{"type":"hologram"}\n`, 0x20, 4 * MIB);
    expect(await refusal(await post(body, { 'content-encoding': 'gzip' }))).toEqual({
      status: 413,
      code: 'RELAY_ITEM_TOO_LARGE',
    });
  });
});

describe('JSON payloads', () => {
  it('drops an event nested deeper than the JSON depth limit as invalid', async () => {
    await setup();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    // The long message makes the relay rewrite the event: a parsed deep tree would not serialise.
    const event = `{"message":"${'m'.repeat(300)}","extra":{"tree":${deep}}}`;
    const response = await post(`{"dsn":"${DSN}"}\n{"type":"event"}\n${event}`);
    expect(response.status).toBe(200);
    await relay!.relay.flushClientReports();
    await upstream!.waitFor(1);
    const items = upstream!.received.flatMap((received) => received.envelope?.items ?? []);
    expect(items.map((item) => item.type)).toEqual(['client_report']);
    const report = JSON.parse(Buffer.from(items[0]!.payload).toString()) as Record<string, unknown>;
    expect(report.discarded_events).toEqual([
      { reason: 'invalid', category: 'error', quantity: 1 },
    ]);
  });
});

describe('refusals while the body is still arriving', () => {
  /** Sends raw requests on one connection; resolves with everything the relay answered. */
  async function exchange(requests: Buffer[], answers: number): Promise<string> {
    const socket = connect(Number(new URL(relay!.url).port), '127.0.0.1');
    let text = '';
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const done = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if ((text.match(/HTTP\/1\.1 \d{3}/g) ?? []).length >= answers) resolve();
      });
      socket.once('close', () => resolve());
    });
    for (const request of requests) socket.write(request);
    await done;
    socket.destroy();
    return text;
  }
  const request = (body: string) =>
    Buffer.from(
      `POST /monitoring HTTP/1.1\r\nHost: relay\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );

  it('cuts a client that sends on past the body limit after the refusal', async () => {
    await setup({ RELAY_MAX_BODY_BYTES: String(4 * MIB) });
    const head = `POST /monitoring HTTP/1.1\r\nHost: relay\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const payload = `{"dsn":"${DSN}"}\n{"type":"event"}\n{"message":"${'y'.repeat(8 * MIB)}"}`;
    const chunk = `${Buffer.byteLength(payload).toString(16)}\r\n${payload}\r\n0\r\n\r\n`;
    const started = Date.now();
    // No second answer can come: the exchange ends when the relay closes the connection.
    const text = await exchange([Buffer.from(head + chunk)], 2);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(text).toMatch(/^HTTP\/1\.1 413/);
  });

  it('reads little of a refused body from a sender that named no known DSN, then cuts it', async () => {
    await setup();
    // 2 MiB behind an unknown DSN: a known sender's refusal would be read to the end (as below).
    const unknown = `{"dsn":"https://unknown0key@o1.ingest.example.com/78"}\n{"type":"attachment"}\n${'z'.repeat(2 * MIB)}`;
    const fine = `{"dsn":"${DSN}"}\n{"type":"event"}\n{"message":"fine"}`;
    const text = await exchange([request(unknown), request(fine)], 2);
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
    expect(statuses).not.toContain('200');
    expect(statuses.length).toBeLessThanOrEqual(1);
  });

  it('reads refused bodies on no faster than RELAY_REFUSED_BODY_RATE', async () => {
    const oversized = `{"dsn":"${DSN}"}\n{"type":"event"}\n{"message":"${'y'.repeat(3 * MIB)}"}`;
    const fine = `{"dsn":"${DSN}"}\n{"type":"event"}\n{"message":"fine"}`;
    const timed = async () => {
      const started = Date.now();
      const text = await exchange([request(oversized), request(fine)], 2);
      expect([...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1])).toEqual([
        '413',
        '200',
      ]);
      return Date.now() - started;
    };
    // Refused at the 1 MiB event limit; of the ~2 MiB left, 1 MiB is the burst, 1 MiB waits a second.
    await setup({ RELAY_REFUSED_BODY_RATE: String(MIB) });
    expect(await timed()).toBeGreaterThan(700);
    await relay!.stop();
    await upstream!.close();
    await setup({ RELAY_REFUSED_BODY_RATE: '0' });
    expect(await timed()).toBeLessThan(700);
  });

  it('answers 413 and keeps the connection for the next request', async () => {
    await setup();
    const oversized = `{"dsn":"${DSN}"}\n{"type":"event"}\n{"message":"${'y'.repeat(3 * MIB)}"}`;
    const fine = `{"dsn":"${DSN}"}\n{"type":"event"}\n{"message":"fine"}`;
    const text = await exchange([request(oversized), request(fine)], 2);
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
    expect(statuses).toEqual(['413', '200']);
    expect(text).toContain('RELAY_ITEM_TOO_LARGE');
    await upstream!.waitFor(1);
  });
});

describe('bytes held by bodies still arriving', () => {
  /**
   * Opens a connection and sends the first `sent` bytes of a `length`-byte body; resolves once
   * the relay has read them (polled, not a fixed wait: a loaded machine reads late) and then
   * had a moment to act on them.
   */
  async function holdOpen(length: number, sent: number) {
    const accepted = new Promise<Socket>((resolve) =>
      relay!.relay.app.server.once('connection', resolve),
    );
    const socket = connect(Number(new URL(relay!.url).port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    const head = `{"dsn":"${DSN}"}\n{"type":"span"}\n{"version":2,"items":[`;
    socket.write(`POST /monitoring HTTP/1.1\r\nHost: relay\r\nContent-Length: ${length}\r\n\r\n`);
    socket.write(head + ' '.repeat(sent - head.length));
    const server = await accepted;
    await expect.poll(() => server.bytesRead, { timeout: 10_000 }).toBeGreaterThan(sent);
    await settle();
    return { socket, server, answer: () => text };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

  it('refuses a large body with 503 once the shared budget is spent, never a small one', async () => {
    await setup({ RELAY_MAX_BUFFERED_BYTES: String(MIB) });
    const first = await holdOpen(1.5 * MIB, 700 * 1024);
    const second = await holdOpen(1.5 * MIB, 700 * 1024);
    await expect.poll(second.answer, { timeout: 10_000 }).toMatch(/^HTTP\/1\.1 503/);
    expect(first.answer()).toBe('');
    expect(second.answer()).toMatch(/^HTTP\/1\.1 503/);
    expect(second.answer()).toContain('RELAY_OVERLOADED');
    const small = await post(`{"dsn":"${DSN}"}\n{"type":"event"}\n{"message":"small"}`);
    expect(small.status).toBe(200);
    first.socket.destroy();
    second.socket.destroy();
    // The relay gives the bytes back when it sees the connections close.
    await expect
      .poll(() => first.server.destroyed && second.server.destroyed, { timeout: 10_000 })
      .toBe(true);
    await settle();
    const third = await holdOpen(1.5 * MIB, 700 * 1024);
    expect(third.answer()).toBe('');
    third.socket.destroy();
    await upstream!.waitFor(1);
  });
});
