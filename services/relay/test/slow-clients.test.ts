/**
 * Clients that send slowly, over raw sockets: headers that never finish, a body that goes
 * silent, a body that trickles a byte at a time. Each is cut off by its timeout, and shutdown
 * never waits for one.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { relayPerTest } from './harness/relay-per-test.js';

const DSN = 'https://slow0key@o1.ingest.example.com/61';
const current = relayPerTest({ RELAY_DSNS: DSN });
const sockets: Socket[] = [];
const timers: Array<ReturnType<typeof setInterval>> = [];

// Registered after relayPerTest's hooks, so it runs before them (Vitest runs afterEach hooks
// last-registered first): the clients are gone before the relay stops.
afterEach(() => {
  for (const timer of timers.splice(0)) clearInterval(timer);
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** Opens a connection to the relay; resolves once connected. */
async function open(): Promise<{
  socket: Socket;
  closed: Promise<number>;
  received: () => string;
}> {
  const { port } = new URL(current.relay.url);
  const socket = connect(Number(port), '127.0.0.1');
  sockets.push(socket);
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const started = Date.now();
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => resolve(Date.now() - started)),
  );
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, closed, received: () => text };
}

const requestHead = (length: number) =>
  `POST /monitoring HTTP/1.1\r\nHost: relay\r\nContent-Length: ${length}\r\n\r\n`;
const body = `{"dsn":"${DSN}"}\n{"type":"event"}\n{"message":"${'x'.repeat(200)}"}`;

/** Writes one byte of `data` every `everyMs` until the socket closes. */
function trickle(socket: Socket, data: string, everyMs: number): void {
  let next = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || next >= data.length) return clearInterval(timer);
    socket.write(data[next]!);
    next += 1;
  }, everyMs);
  timers.push(timer);
}

function within(ms: number, promise: Promise<number>): Promise<number> {
  return Promise.race([
    promise,
    new Promise<number>((_, reject) =>
      setTimeout(() => reject(new Error(`still open after ${ms} ms`)), ms),
    ),
  ]);
}

describe('timeouts', () => {
  it('cuts a client that never finishes its headers (RELAY_HEADERS_TIMEOUT)', async () => {
    await current.start({ RELAY_HEADERS_TIMEOUT: '300ms', RELAY_REQUEST_TIMEOUT: '5s' });
    const client = await open();
    client.socket.write('POST /monitoring HTTP/1.1\r\nHost: relay\r\n');
    expect(await within(3000, client.closed)).toBeLessThan(2000);
  });

  it('cuts a body that goes silent (RELAY_BODY_IDLE_TIMEOUT)', async () => {
    await current.start({ RELAY_BODY_IDLE_TIMEOUT: '300ms' });
    const client = await open();
    client.socket.write(requestHead(body.length) + body.slice(0, 20));
    expect(await within(3000, client.closed)).toBeLessThan(2000);
    expect(current.upstream.received).toEqual([]);
  });

  it('cuts a body that trickles a byte at a time (RELAY_REQUEST_TIMEOUT)', async () => {
    await current.start({ RELAY_REQUEST_TIMEOUT: '1s', RELAY_HEADERS_TIMEOUT: '1s' });
    const client = await open();
    client.socket.write(requestHead(body.length));
    trickle(client.socket, body, 50);
    // The whole body would take body.length × 50 ms (over 13 s).
    expect(await within(5000, client.closed)).toBeLessThan(3500);
    expect(current.upstream.received).toEqual([]);
  });

  it('leaves a client that keeps to the timeouts alone', async () => {
    await current.start({ RELAY_REQUEST_TIMEOUT: '2s', RELAY_HEADERS_TIMEOUT: '1s' });
    const client = await open();
    client.socket.write(requestHead(body.length));
    trickle(client.socket, body.slice(0, 10), 50);
    await new Promise((resolve) => setTimeout(resolve, 700));
    client.socket.write(body.slice(10));
    await current.upstream.waitFor(1);
    expect(client.received()).toMatch(/^HTTP\/1\.1 200/);
  });
});

describe('shutdown', () => {
  it('does not wait for a body that trickles', async () => {
    await current.start();
    // Shut down only once the relay has the request (not after a fixed time: on a loaded
    // machine the head may not have been read yet, and there would be no request to answer).
    const requestArrived = new Promise((resolve) =>
      current.relay.relay.app.server.once('request', resolve),
    );
    const client = await open();
    client.socket.write(requestHead(body.length));
    trickle(client.socket, body, 200);
    await requestArrived;
    const started = Date.now();
    await current.relay.relay.shutdown(5000);
    expect(Date.now() - started).toBeLessThan(1500);
    await within(1000, client.closed);
    expect(client.received()).toMatch(/^HTTP\/1\.1 503/);
    expect(client.received()).toContain('RELAY_SHUTTING_DOWN');
  });

  it('closes a connection still sending its headers when the shutdown timeout ends', async () => {
    await current.start();
    const client = await open();
    client.socket.write('POST /monitoring HTTP/1.1\r\n');
    trickle(client.socket, 'Host: relay\r\nX-Slow: '.padEnd(400, 'x'), 200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await current.relay.relay.shutdown(1000);
    expect(Date.now() - started).toBeLessThan(2000);
    await within(1000, client.closed);
  });
});
