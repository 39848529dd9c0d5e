/**
 * Relays sharing one real Redis recognise an event another replica accepted, so an SDK's retry
 * that the gateway sends to a different replica is not forwarded twice. With Redis gone every
 * relay still accepts every report (nothing is refused or held), and each goes on recognising
 * the events it accepted itself.
 */
import { startTestRedis, type TestRedis } from '@strata/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './harness/fake-upstream.js';
import { metricOf as metric, untilConnectedToRedis } from './harness/relay-metrics.js';
import { startRelay, type RelayUnderTest } from './harness/relay-under-test.js';

const DSN = 'https://sharedkey@o1.ingest.example.com/23';

let redis: TestRedis;
let upstream: FakeUpstream;
let relays: RelayUnderTest[];

beforeAll(async () => {
  [redis, upstream] = await Promise.all([startTestRedis(), startFakeUpstream()]);
  const env = {
    RELAY_DSNS: DSN,
    REDIS_URL: redis.url,
    // Generous on a loaded test machine: this file is about sharing, not about deadlines.
    REDIS_COMMAND_TIMEOUT: '1s',
    RELAY_REPLICAS: '2',
  };
  relays = await Promise.all([startRelay(upstream, env), startRelay(upstream, env)]);
  await untilConnectedToRedis(relays);
}, 120_000);

afterAll(async () => {
  await Promise.all((relays ?? []).map((relay) => relay.stop()));
  await redis?.kill();
  await upstream?.close();
});

let sequence = 0;
/** A new event id (32 hex digits), unique in this file. */
const newEventId = () => `${(++sequence).toString(16).padStart(8, '0')}${'e'.repeat(24)}`;

async function send(relay: RelayUnderTest, id: string): Promise<Response> {
  const body = `${JSON.stringify({ event_id: id, dsn: DSN })}\n{"type":"event"}\n{"message":"m"}`;
  return fetch(`${relay.url}/monitoring`, { method: 'POST', body });
}

/** How many copies of `id` reached the upstream, once a last new event has been delivered. */
async function copiesForwarded(id: string): Promise<number> {
  const marker = newEventId();
  expect((await send(relays[0]!, marker)).status).toBe(200);
  await upstream.waitFor(upstream.received.length + 1);
  await new Promise((resolve) => setTimeout(resolve, 200));
  return upstream.received.filter((r) => r.envelope?.header.event_id === id).length;
}

describe('event ids shared through Redis', () => {
  it('a retry that reaches the other replica is answered with its id and not forwarded again', async () => {
    const id = newEventId();
    expect((await send(relays[0]!, id)).status).toBe(200);
    const retry = await send(relays[1]!, id);
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual({ id });
    expect(await copiesForwarded(id)).toBe(1);
    expect(await metric(relays[1]!, 'relay_envelopes_duplicate_total')).toBe(1);
  });

  it('with Redis gone, every copy is accepted and each replica still recognises its own', async () => {
    await redis.kill();
    const id = newEventId();
    for (const relay of [relays[0]!, relays[0]!, relays[1]!])
      expect((await send(relay, id)).status).toBe(200);
    // The second copy met the replica that accepted the first; the third did not.
    expect(await copiesForwarded(id)).toBe(2);
    expect(await metric(relays[1]!, 'relay_dedupe_local_only_total')).toBeGreaterThan(0);
  });
});
