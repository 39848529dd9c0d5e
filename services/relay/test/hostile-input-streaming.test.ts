/**
 * Hostile bodies over raw sockets, while they are still arriving: a refused body's sender is cut
 * off or read on slowly, a refusal keeps the connection for the next request, and bodies that
 * have not finished share one budget of buffered bytes. Refusals by what a body holds are in
 * hostile-input.test.ts.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { relayPerTest } from './harness/relay-per-test.js';

const MIB = 1024 * 1024;
const DSN = 'https://hostile0key@o1.ingest.example.com/77';
const current = relayPerTest({ RELAY_DSNS: DSN });
const post = (body: Uint8Array | string, headers: Record<string, string> = {}) =>
  current.post('/monitoring', body, headers);

describe('refusals while the body is still arriving', () => {
  /** Sends raw requests on one connection; resolves with everything the relay answered. */
  async function exchange(requests: Buffer[], answers: number): Promise<string> {
    const socket = connect(Number(new URL(current.relay.url).port), '127.0.0.1');
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
    await current.start({ RELAY_MAX_BODY_BYTES: String(4 * MIB) });
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
    await current.start();
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
    await current.start({ RELAY_REFUSED_BODY_RATE: String(MIB) });
    expect(await timed()).toBeGreaterThan(700);
    await current.relay.stop();
    await current.upstream.close();
    await current.start({ RELAY_REFUSED_BODY_RATE: '0' });
    expect(await timed()).toBeLessThan(700);
  });

  it('answers 413 and keeps the connection for the next request', async () => {
    await current.start();
    const oversized = `{"dsn":"${DSN}"}\n{"type":"event"}\n{"message":"${'y'.repeat(3 * MIB)}"}`;
    const fine = `{"dsn":"${DSN}"}\n{"type":"event"}\n{"message":"fine"}`;
    const text = await exchange([request(oversized), request(fine)], 2);
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
    expect(statuses).toEqual(['413', '200']);
    expect(text).toContain('RELAY_ITEM_TOO_LARGE');
    await current.upstream.waitFor(1);
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
      current.relay.relay.app.server.once('connection', resolve),
    );
    const socket = connect(Number(new URL(current.relay.url).port), '127.0.0.1');
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
    await current.start({ RELAY_MAX_BUFFERED_BYTES: String(MIB) });
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
    await current.upstream.waitFor(1);
  });
});
