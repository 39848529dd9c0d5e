import { describe, expect, it } from 'vitest';
import { createDsnRegistry } from '../dsn/dsn-registry.js';
import type { DropReason } from '../outcomes/drop-reason.js';
import { createRateLimitState } from '../rate-limits/rate-limit-state.js';
import type { Spool, SpoolEntry } from '../spool/spool.js';
import { createForwarder } from './forwarder.js';
import type { UpstreamResponse } from './http-send.js';

const DSN = 'https://key@o1.ingest.example.com/3';
const encoder = new TextEncoder();

/** An in-memory spool with the same contract as the file spool. */
function memorySpool(bodies: string[], receivedAt = 0) {
  const queue: SpoolEntry[] = bodies.map((body, offset) => ({
    dsnKey: '3:key',
    receivedAt,
    size: body.length,
    segment: 0,
    offset,
    bodyOffset: 0,
    body: encoder.encode(body),
    attempts: 0,
  }));
  const completed: SpoolEntry[] = [];
  const spool: Spool = {
    open: async () => queue.length,
    append: async () => 'full',
    shift: () => queue.shift(),
    unshift: (entry) => void queue.unshift(entry),
    readBody: async (entry) => entry.body ?? new Uint8Array(),
    complete: (entry) => void completed.push(entry),
    stats: () => ({
      bytes: 0,
      maxBytes: 1,
      pending: queue.length,
      queued: queue.length,
      oldestReceivedAt: undefined,
    }),
    onAppend: () => undefined,
    close: async () => undefined,
  };
  return { spool, completed };
}

function setup(
  bodies: string[],
  respond: () => Promise<UpstreamResponse>,
  now: () => number = () => 0,
  receivedAt = 0,
) {
  const { spool, completed } = memorySpool(bodies, receivedAt);
  const drops: Array<[DropReason, string, number]> = [];
  const sent: string[] = [];
  const rateLimits = createRateLimitState();
  const forwarder = createForwarder({
    spool,
    send: async (_target, body) => {
      sent.push(new TextDecoder().decode(body));
      return respond();
    },
    registry: createDsnRegistry([DSN], { upstreamKind: 'sentry', clientName: 'test/1' }),
    rateLimits,
    outcomes: {
      record: (_dsn, reason, category, quantity) => void drops.push([reason, category, quantity]),
    },
    observer: { onResponse: () => undefined, onError: () => undefined },
    maxInFlight: 2,
    maxAgeMs: 1000,
    retry: { baseMs: 1, maxMs: 2, maxAttempts: 2 },
    now,
    random: () => 0.5,
  });
  return { forwarder, completed, drops, sent, rateLimits };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));
const ok = async (): Promise<UpstreamResponse> => ({
  status: 200,
  rateLimitsHeader: undefined,
  retryAfterHeader: undefined,
});

describe('createForwarder', () => {
  it('drops envelopes older than the spool age bound instead of sending them', async () => {
    const { forwarder, completed, drops, sent } = setup(
      ['{}\n{"type":"event"}\n{}'],
      ok,
      () => 5000,
      0,
    );
    forwarder.pump();
    await settle();
    expect(sent).toEqual([]);
    expect(completed).toHaveLength(1);
    expect(drops).toEqual([['spool-expired', 'error', 1]]);
  });

  it('removes items that became rate limited after spooling', async () => {
    const { forwarder, drops, sent, rateLimits } = setup(
      ['{}\n{"type":"event"}\n{}\n{"type":"session"}\n{}'],
      ok,
    );
    rateLimits.update('3:key', { rateLimitsHeader: '60:error' }, 0);
    forwarder.pump();
    await settle();
    expect(sent).toEqual(['{}\n{"type":"session"}\n{}']);
    expect(drops).toEqual([['rate-limited', 'error', 1]]);
  });

  it('learns limits from responses, but not from a 413', async () => {
    const answers: UpstreamResponse[] = [
      { status: 413, rateLimitsHeader: '60:error', retryAfterHeader: undefined },
      { status: 200, rateLimitsHeader: '30:span', retryAfterHeader: undefined },
    ];
    const { forwarder, rateLimits } = setup(
      ['{}\n{"type":"event"}\n{}', '{}\n{"type":"session"}\n{}'],
      async () => answers.shift()!,
    );
    forwarder.pump();
    await settle();
    expect(rateLimits.get('3:key', 0)).toEqual({ span: 30_000 });
  });

  it('retries a 5xx, then gives up after the attempt budget and reports network_error', async () => {
    const failing = async (): Promise<UpstreamResponse> => ({
      status: 503,
      rateLimitsHeader: undefined,
      retryAfterHeader: undefined,
    });
    // The pause between tries is measured on the clock, so this test needs one that moves.
    const start = Date.now();
    const { forwarder, completed, drops, sent } = setup(
      ['{}\n{"type":"event"}\n{}'],
      failing,
      () => Date.now() - start,
    );
    forwarder.pump();
    await settle();
    expect(sent).toHaveLength(2);
    expect(completed).toHaveLength(1);
    expect(drops).toEqual([['upstream-unreachable', 'error', 1]]);
  });
});
