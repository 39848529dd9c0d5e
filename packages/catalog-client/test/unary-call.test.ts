/**
 * Unary calls on the transport (@strata/grpc-transport, one replica) against the real data
 * service: answers, statuses with details, deadlines, cancellation, losing and regaining the
 * service, and connections that go silent. Peers that break the protocol are in
 * unary-call-protocol.test.ts.
 */
import { status } from '@grpc/grpc-js';
import { loadDataConfig, startDataService, type RunningDataService } from '@strata/data';
import { GetItemResponse, ItemView, ListItemsResponse, readStatusDetails } from '@strata/proto';
import { pbkdf2 } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcTransport } from '@strata/grpc-transport';
import { failure, GET, getRequest, LIST, listRequest } from './catalog-calls.js';
import { silenceableProxy } from './silenceable-proxy.js';

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

describe('after the data service restarts', () => {
  // libuv's threadpool (4 threads) also runs getaddrinfo: fill it for longer than the call's
  // 1 s deadline (~1.5 s on an idle machine; a loaded one takes longer still).
  const occupyThreadpool = () =>
    Promise.all(
      Array.from(
        { length: 4 },
        () => new Promise((resolve) => pbkdf2('busy', 'salt', 2_000_000, 64, 'sha512', resolve)),
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
  }, 60_000);
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
