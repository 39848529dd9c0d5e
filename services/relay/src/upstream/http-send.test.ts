import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpSend } from './http-send.js';

interface Seen {
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
  readonly url: string;
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A local HTTP server standing in for Sentry; `answer` decides each response. */
async function upstream(answer: (res: ServerResponse, seen: Seen) => void) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = { headers: req.headers, body: Buffer.concat(chunks), url: req.url ?? '' };
      seen.push(entry);
      answer(res, entry);
    });
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(resolve);
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, connections: () => sockets.size };
}

function sender(maxSockets = 4, timeoutMs = 5_000) {
  const created = createHttpSend({ maxSockets, timeoutMs, userAgent: 'strata-relay/test' });
  cleanups.push(() => created.close());
  return created.send;
}

const envelope = (size: number) => Buffer.from(`{}\n{"type":"event"}\n{"m":"${'x'.repeat(size)}"}`);

describe('createHttpSend', () => {
  it('posts the envelope and returns status and rate-limit headers', async () => {
    const server = await upstream((res) =>
      res.writeHead(429, { 'x-sentry-rate-limits': '60:error:key', 'retry-after': '60' }).end('{}'),
    );
    const send = sender();
    const response = await send(
      { kind: 'sentry', url: `${server.url}/api/1/envelope/?sentry_key=k` },
      envelope(10),
    );
    expect(response).toEqual({
      status: 429,
      rateLimitsHeader: '60:error:key',
      retryAfterHeader: '60',
    });
    expect(server.seen[0]).toMatchObject({
      url: '/api/1/envelope/?sentry_key=k',
      body: envelope(10),
      headers: {
        'content-type': 'application/x-sentry-envelope',
        'user-agent': 'strata-relay/test',
      },
    });
  });

  it('returns a redirect as the final status instead of following it', async () => {
    const server = await upstream((res) => res.writeHead(302, { location: '/elsewhere' }).end());
    const response = await sender()({ kind: 'sentry', url: `${server.url}/a` }, envelope(1));
    expect(response.status).toBe(302);
    expect(server.seen.map((s) => s.url)).toEqual(['/a']);
  });

  it('gzips bodies over 32 KiB for Sentry, never for Spotlight', async () => {
    const server = await upstream((res) => res.writeHead(200).end());
    const send = sender();
    const big = envelope(40 * 1024);
    await send({ kind: 'sentry', url: `${server.url}/s` }, big);
    await send({ kind: 'spotlight', url: `${server.url}/stream` }, big);
    expect(server.seen[0]!.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(server.seen[0]!.body)).toEqual(big);
    expect(server.seen[1]!.headers['content-encoding']).toBeUndefined();
    expect(server.seen[1]!.body).toEqual(big);
  });

  it('gzips a 20 MiB body off the event loop, to the same bytes as gzipSync', async () => {
    const server = await upstream((res) => res.writeHead(200).end());
    const send = sender();
    const big = Buffer.from(randomBytes(10 * 1024 * 1024).toString('hex')); // 20 MiB of text
    let worstGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
    }, 5);
    await send({ kind: 'sentry', url: `${server.url}/s` }, big);
    clearInterval(ticker);
    const syncStarted = performance.now();
    const expected = gzipSync(big);
    const syncMs = performance.now() - syncStarted;
    expect(server.seen[0]!.body.equals(expected)).toBe(true);
    // On the loop, the timer would wait as long as the whole compression (relative, so a busy
    // machine slowing both does not make this flaky).
    expect(worstGap).toBeLessThan(syncMs / 3);
  });

  it('rejects when the upstream does not answer within the timeout', async () => {
    const server = await upstream(() => undefined);
    const send = sender(4, 200);
    await expect(send({ kind: 'sentry', url: `${server.url}/slow` }, envelope(1))).rejects.toThrow(
      /timeout/i,
    );
  });

  it('keeps connections alive and opens at most maxSockets', async () => {
    const server = await upstream((res) => setTimeout(() => res.writeHead(200).end(), 20));
    const send = sender(2);
    const target = { kind: 'sentry', url: `${server.url}/k` } as const;
    await Promise.all(Array.from({ length: 8 }, () => send(target, envelope(1))));
    await Promise.all(Array.from({ length: 8 }, () => send(target, envelope(1))));
    expect(server.seen).toHaveLength(16);
    expect(server.connections()).toBeLessThanOrEqual(2);
  });

  it('reads past a response body it does not keep, so the connection carries the next send', async () => {
    const answerBody = 'x'.repeat(256 * 1024);
    const server = await upstream((res) => res.writeHead(200).end(answerBody));
    const send = sender(1);
    const target = { kind: 'sentry', url: `${server.url}/k` } as const;
    for (let round = 0; round < 3; round += 1) {
      expect((await send(target, envelope(1))).status).toBe(200);
    }
    expect(server.seen).toHaveLength(3);
    expect(server.connections()).toBe(1);
  });
});
