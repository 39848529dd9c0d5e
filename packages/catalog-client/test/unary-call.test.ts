/**
 * Unary calls on the transport (src/transport/unary-call.ts, one replica): against the real data service
 * (answers, statuses with details, deadlines, cancellation, losing and regaining the service),
 * and against HTTP/2 peers that break the gRPC protocol in the ways a proxy or a bug would.
 */
import { status } from '@grpc/grpc-js';
import { loadDataConfig, startDataService, type RunningDataService } from '@strata/data';
import {
  CatalogServiceService,
  GetItemResponse,
  ItemView,
  ListItemsRequest,
  ListItemsResponse,
  readStatusDetails,
} from '@strata/proto';
import { pbkdf2 } from 'node:crypto';
import http2 from 'node:http2';
import net, { type AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogCallError } from '../src/transport/call-error.js';
import { createGrpcTransport } from '../src/transport/grpc-transport.js';
import { frameMessage } from '../src/transport/grpc-framing.js';

const LIST = CatalogServiceService.listItems.path;
const GET = CatalogServiceService.getItem.path;
const listRequest = (fields: Partial<ListItemsRequest>) =>
  ListItemsRequest.encode(ListItemsRequest.fromPartial(fields)).finish();
const getRequest = (id: number) => CatalogServiceService.getItem.requestSerialize({ id });

async function failure(pending: Promise<unknown>): Promise<CatalogCallError> {
  const outcome = await pending.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!outcome) throw new Error('the call succeeded');
  return outcome as CatalogCallError;
}

const startData = (port = 0) =>
  startDataService(
    loadDataConfig({ DATA_PORT: String(port), DATA_DIR: 'memory://' }),
    pino({ level: 'silent' }),
  );

// One data service for the tests that do not stop theirs.
let data: RunningDataService;
beforeAll(async () => {
  data = await startData();
});
afterAll(() => data?.stop());

describe('against the data service', () => {
  it('returns the answer bytes the data service encodes', async () => {
    const caller = createGrpcTransport(data.address);
    try {
      const bytes = await caller.unary(LIST, listRequest({ pageSize: 3 }), { deadlineMs: 2000 });
      const page = ListItemsResponse.decode(bytes);
      expect(page.items.map((item) => item.id)).toEqual([1, 2, 3]);
      expect(page.items[0]!.createTime).toBeInstanceOf(Date);
      const basic = ListItemsResponse.decode(
        await caller.unary(LIST, listRequest({ pageSize: 2, view: ItemView.ITEM_VIEW_BASIC }), {
          deadlineMs: 2000,
        }),
      );
      expect(basic.items[1]).toMatchObject({ id: 2, categoryId: '', createTime: undefined });
      const one = GetItemResponse.decode(
        await caller.unary(GET, getRequest(7), { deadlineMs: 2000 }),
      );
      expect(one.item?.id).toBe(7);
      expect(one.tags).toContain('item:7');
    } finally {
      caller.close();
    }
  });

  it('rejects with the status, details and metadata the service sent', async () => {
    const caller = createGrpcTransport(data.address);
    try {
      const missing = await failure(caller.unary(GET, getRequest(987_654), { deadlineMs: 2000 }));
      expect(missing.code).toBe(status.NOT_FOUND);
      expect(missing.message).toMatch(/^5 NOT_FOUND: /);
      const invalid = await failure(
        caller.unary(LIST, listRequest({ pageSize: -1 }), { deadlineMs: 2000 }),
      );
      expect(invalid.code).toBe(status.INVALID_ARGUMENT);
      expect(invalid.details).toContain('page_size');
      const details = readStatusDetails(invalid.metadata);
      expect(details.violations.map((violation) => violation.field)).toContain('page_size');
    } finally {
      caller.close();
    }
  });

  it('sends the deadline, and gives up locally when it passes', async () => {
    const caller = createGrpcTransport(data.address);
    try {
      const late = await failure(
        caller.unary(LIST, listRequest({ pageSize: 100 }), { deadlineMs: 0 }),
      );
      expect(late.code).toBe(status.DEADLINE_EXCEEDED);
      // The connection is still good for the next call.
      await expect(caller.unary(GET, getRequest(1), { deadlineMs: 2000 })).resolves.toBeInstanceOf(
        Buffer,
      );
    } finally {
      caller.close();
    }
  });

  it('cancels on the abort signal, before or during the call', async () => {
    const caller = createGrpcTransport(data.address);
    try {
      const before = new AbortController();
      before.abort();
      const early = await failure(
        caller.unary(GET, getRequest(1), { deadlineMs: 2000, signal: before.signal }),
      );
      expect(early.code).toBe(status.CANCELLED);
      const during = new AbortController();
      const pending = caller.unary(LIST, listRequest({ pageSize: 100 }), {
        deadlineMs: 2000,
        signal: during.signal,
      });
      during.abort();
      expect((await failure(pending)).code).toBe(status.CANCELLED);
    } finally {
      caller.close();
    }
  });

  it('reports UNAVAILABLE while nothing listens, and reconnects once the service is back', async () => {
    const moving = await startData();
    const port = moving.port;
    const caller = createGrpcTransport(moving.address);
    try {
      await caller.unary(GET, getRequest(1), { deadlineMs: 2000 });
      await moving.stop();
      const down = await failure(caller.unary(GET, getRequest(1), { deadlineMs: 2000 }));
      expect(down.code).toBe(status.UNAVAILABLE);
      const back = await startData(port);
      try {
        const bytes = await caller.unary(GET, getRequest(2), { deadlineMs: 2000 });
        expect(GetItemResponse.decode(bytes).item?.id).toBe(2);
      } finally {
        await back.stop();
      }
    } finally {
      caller.close();
    }
  }, 30_000);

  it('refuses calls once closed', async () => {
    const caller = createGrpcTransport(data.address);
    caller.close();
    expect((await failure(caller.unary(GET, getRequest(1), { deadlineMs: 2000 }))).code).toBe(
      status.UNAVAILABLE,
    );
  });
});

/**
 * A TCP proxy whose connections can be made to go silent: bytes are dropped both ways and
 * nothing is closed, as when a peer's host vanishes.
 */
async function silenceableProxy(targetPort: number) {
  const open = new Set<net.Socket>();
  const silenced = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted += 1;
    open.add(client);
    const target = net.connect(targetPort, '127.0.0.1');
    client.on('data', (bytes) => void (silenced.has(client) || target.write(bytes)));
    target.on('data', (bytes) => void (silenced.has(client) || client.write(bytes)));
    const end = () => {
      open.delete(client);
      client.destroy();
      target.destroy();
    };
    for (const socket of [client, target]) socket.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted: () => accepted,
    /** Silenced connections not closed yet (by the client, since the proxy never closes one). */
    silencedStillOpen: () => [...silenced].filter((socket) => open.has(socket)).length,
    silenceAll: () => open.forEach((socket) => silenced.add(socket)),
    close: () => {
      open.forEach((socket) => socket.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('after the data service restarts', () => {
  // libuv's threadpool (4 threads) also runs getaddrinfo: fill it for ~3 s.
  const occupyThreadpool = () =>
    Promise.all(
      Array.from(
        { length: 4 },
        () => new Promise((resolve) => pbkdf2('busy', 'salt', 4_000_000, 64, 'sha512', resolve)),
      ),
    );

  it('reconnects in the background, so the next call needs no name lookup', async () => {
    const first = await startData();
    const port = first.port;
    const caller = createGrpcTransport(`localhost:${port}`, {
      timing: { reconnectMs: 100, maxReconnectMs: 200 },
    });
    let back: RunningDataService | undefined;
    try {
      await caller.unary(GET, getRequest(1), { deadlineMs: 2000 });
      await first.stop();
      back = await startData(port);
      // Reconnects retry every 100–200 ms; the margin is for a loaded CI machine.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      // A name lookup now would wait behind the threadpool's work, past the deadline.
      const busy = occupyThreadpool();
      const bytes = await caller.unary(GET, getRequest(5), { deadlineMs: 1000 });
      expect(GetItemResponse.decode(bytes).item?.id).toBe(5);
      await busy;
    } finally {
      caller.close();
      await back?.stop();
    }
  }, 30_000);
});

describe('when the connection goes silent', () => {
  it('a call that gets no answer in time sends the next one on a new connection', async () => {
    const proxy = await silenceableProxy(data.port);
    const caller = createGrpcTransport(proxy.address);
    try {
      await caller.unary(GET, getRequest(1), { deadlineMs: 2000 });
      proxy.silenceAll();
      const lost = await failure(caller.unary(GET, getRequest(1), { deadlineMs: 200 }));
      expect(lost.code).toBe(status.DEADLINE_EXCEEDED);
      const bytes = await caller.unary(GET, getRequest(3), { deadlineMs: 2000 });
      expect(GetItemResponse.decode(bytes).item?.id).toBe(3);
      expect(proxy.accepted()).toBe(2);
    } finally {
      caller.close();
      await proxy.close();
    }
  });

  it('an idle connection whose pings go unanswered is dropped before the next call', async () => {
    const proxy = await silenceableProxy(data.port);
    const caller = createGrpcTransport(proxy.address, {
      timing: { keepaliveMs: 50, pingTimeoutMs: 100 },
    });
    try {
      await caller.unary(GET, getRequest(1), { deadlineMs: 2000 });
      proxy.silenceAll();
      // Polled, not a fixed wait: on a loaded machine the pings can run late.
      await expect.poll(() => proxy.silencedStillOpen(), { timeout: 10_000 }).toBe(0);
      const bytes = await caller.unary(GET, getRequest(4), { deadlineMs: 1000 });
      expect(GetItemResponse.decode(bytes).item?.id).toBe(4);
      expect(proxy.accepted()).toBe(2);
    } finally {
      caller.close();
      await proxy.close();
    }
  });
});

describe('against peers that break the protocol', () => {
  type Behaviour = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void;
  let behaviour: Behaviour = () => undefined;
  let address = '';
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    stream.resume(); // the request body is not needed here
    stream.on('error', () => undefined); // resets this side sends come back as stream errors
    behaviour(stream, headers);
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function codeFor(next: Behaviour, options: { maxResponseBytes?: number } = {}) {
    behaviour = next;
    const caller = createGrpcTransport(address, options);
    try {
      const error = await failure(caller.unary(GET, getRequest(1), { deadlineMs: 2000 }));
      return status[error.code];
    } finally {
      caller.close();
    }
  }
  const grpcHeaders = { ':status': 200, 'content-type': 'application/grpc' };

  it('sends gRPC request headers with the metadata', async () => {
    let seen: http2.IncomingHttpHeaders = {};
    behaviour = (stream, headers) => {
      seen = headers;
      stream.respond(grpcHeaders, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(frameMessage(Buffer.alloc(0)));
    };
    const caller = createGrpcTransport(address);
    try {
      const bytes = await caller.unary(GET, getRequest(1), {
        deadlineMs: 1500,
        metadata: { 'strata-trace-id': 'trace-1' },
      });
      expect(bytes.length).toBe(0);
    } finally {
      caller.close();
    }
    expect(seen).toMatchObject({
      ':method': 'POST',
      ':path': GET,
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-timeout': '1500m',
      'strata-trace-id': 'trace-1',
    });
  });

  it('opens wide receive windows, so many list pages can be under way at once', async () => {
    let streamWindow = 0;
    let connectionWindow = 0;
    behaviour = (stream) => {
      streamWindow = stream.session?.remoteSettings.initialWindowSize ?? 0;
      connectionWindow = stream.session?.state.remoteWindowSize ?? 0;
      stream.respond(grpcHeaders, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(frameMessage(Buffer.alloc(0)));
    };
    const caller = createGrpcTransport(address);
    try {
      await caller.unary(GET, getRequest(1), { deadlineMs: 1500 });
    } finally {
      caller.close();
    }
    // HTTP/2's defaults are 65,535 bytes for each: three ~20 KB ListItems(100) pages.
    expect(streamWindow).toBeGreaterThanOrEqual(1024 * 1024);
    expect(connectionWindow).toBeGreaterThanOrEqual(8 * 1024 * 1024);
  });

  it('maps answers without a gRPC status', async () => {
    expect(await codeFor((stream) => stream.respond({ ':status': 503 }, { endStream: true }))).toBe(
      'UNAVAILABLE',
    );
    expect(
      await codeFor((stream) => {
        stream.respond({ ':status': 200, 'content-type': 'text/html' });
        stream.end('<html>');
      }),
    ).toBe('UNKNOWN');
    // A gRPC answer that ends without trailers.
    expect(
      await codeFor((stream) => {
        stream.respond(grpcHeaders);
        stream.end(frameMessage(Buffer.alloc(0)));
      }),
    ).toBe('UNAVAILABLE');
  });

  it('reads a trailers-only answer', async () => {
    expect(
      await codeFor((stream) =>
        stream.respond({ ...grpcHeaders, 'grpc-status': '14' }, { endStream: true }),
      ),
    ).toBe('UNAVAILABLE');
  });

  it('maps stream resets as grpc-js does', async () => {
    const { NGHTTP2_REFUSED_STREAM, NGHTTP2_INTERNAL_ERROR } = http2.constants;
    expect(await codeFor((stream) => stream.close(NGHTTP2_REFUSED_STREAM))).toBe('UNAVAILABLE');
    expect(await codeFor((stream) => stream.close(NGHTTP2_INTERNAL_ERROR))).toBe('INTERNAL');
  });

  it('refuses compressed, malformed and oversized answers', async () => {
    const answer =
      (body: Buffer): Behaviour =>
      (stream) => {
        stream.respond(grpcHeaders, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(body);
      };
    const compressed = frameMessage(Buffer.from('x'));
    compressed[0] = 1;
    expect(await codeFor(answer(compressed))).toBe('INTERNAL');
    expect(await codeFor(answer(Buffer.from([0, 0, 0])))).toBe('INTERNAL');
    const big = frameMessage(Buffer.alloc(64 * 1024, 1));
    expect(await codeFor(answer(big), { maxResponseBytes: 1024 })).toBe('RESOURCE_EXHAUSTED');
  });
});
