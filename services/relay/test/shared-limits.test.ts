/**
 * Three relays sharing one real Redis: a client that spreads ten times its limit over all three
 * gets its limit once, not three times, per address and per project key. With Redis gone each
 * relay admits its share (limit / replicas), so together they still admit about the total.
 */
import { startTestRedis, type TestRedis } from '@strata/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './harness/fake-upstream.js';
import { metricOf, untilConnectedToRedis } from './harness/relay-metrics.js';
import { startRelay, type RelayUnderTest } from './harness/relay-under-test.js';

const ADDRESS_DSN = 'https://addresskey@o1.ingest.example.com/7';
const KEY_DSN = 'https://projectkey@o1.ingest.example.com/8';
const PER_ADDRESS = 30;
const PER_KEY = 90;
const REPLICAS = 3;

let redis: TestRedis;
let upstream: FakeUpstream;
let relays: RelayUnderTest[];

beforeAll(async () => {
  [redis, upstream] = await Promise.all([startTestRedis(), startFakeUpstream()]);
  const env = {
    RELAY_DSNS: `${ADDRESS_DSN},${KEY_DSN}`,
    RELAY_TRUST_PROXY: 'true',
    REDIS_URL: redis.url,
    // Generous on a loaded test machine: this file is about sharing, not about deadlines.
    REDIS_COMMAND_TIMEOUT: '1s',
    RELAY_REPLICAS: String(REPLICAS),
    // Long enough that no window ends during a test.
    RELAY_RATE_LIMIT_WINDOW: '60s',
    RELAY_RATE_LIMIT_PER_ADDRESS: String(PER_ADDRESS),
    RELAY_RATE_LIMIT_PER_KEY: String(PER_KEY),
  };
  relays = await Promise.all(Array.from({ length: REPLICAS }, () => startRelay(upstream, env)));
  await untilConnectedToRedis(relays);
}, 120_000);

afterAll(async () => {
  await Promise.all((relays ?? []).map((relay) => relay.stop()));
  await redis?.kill();
  await upstream?.close();
});

/** Sends `count` envelopes round-robin over the relays; returns how many each answered 200. */
async function sendSpread(count: number, dsn: string, clientOf: (n: number) => string) {
  const accepted = relays.map(() => 0);
  const statuses = new Set<number>();
  const send = async (n: number) => {
    const index = n % relays.length;
    const id = `${dsn.length}${n}`.padStart(32, '0');
    const response = await fetch(`${relays[index]!.url}/monitoring`, {
      method: 'POST',
      headers: { 'x-forwarded-for': clientOf(n) },
      body: `{"event_id":"${id}","dsn":"${dsn}"}\n{"type":"event"}\n{"message":"spread ${n}"}`,
    });
    await response.arrayBuffer();
    statuses.add(response.status);
    if (response.status === 200) accepted[index]! += 1;
  };
  // Ten at a time: concurrent, as a real client's requests are.
  for (let n = 0; n < count; n += 10)
    await Promise.all(Array.from({ length: Math.min(10, count - n) }, (_, i) => send(n + i)));
  return { accepted, total: accepted.reduce((a, b) => a + b, 0), statuses };
}

const localDecisions = (relay: RelayUnderTest) =>
  metricOf(relay, 'relay_shared_limit_local_decisions_total');

describe('request limits shared through Redis', () => {
  it('holds one address to its limit across three relays at ten times the limit', async () => {
    const { accepted, total, statuses } = await sendSpread(
      PER_ADDRESS * 10,
      ADDRESS_DSN,
      () => '198.51.100.7',
    );
    expect(total).toBeLessThanOrEqual(Math.floor(PER_ADDRESS * 1.1));
    expect(total).toBeGreaterThanOrEqual(PER_ADDRESS);
    // Every relay took part: the limit is one shared count, not one relay refusing the rest.
    for (const count of accepted) expect(count).toBeGreaterThan(0);
    expect([...statuses].sort()).toEqual([200, 429]);
    for (const relay of relays) expect(await localDecisions(relay)).toBe(0);
  });

  it('holds one project key to its limit across three relays, whatever the addresses', async () => {
    const { total } = await sendSpread(PER_KEY * 10, KEY_DSN, (n) => `203.0.113.${n % 250}`);
    expect(total).toBeLessThanOrEqual(Math.floor(PER_KEY * 1.1));
    expect(total).toBeGreaterThanOrEqual(PER_KEY);
  });

  it('with Redis gone, each relay admits its share, so together about the limit', async () => {
    await redis.kill();
    const { accepted, total } = await sendSpread(PER_ADDRESS * 10, ADDRESS_DSN, () => '192.0.2.9');
    const share = Math.ceil(PER_ADDRESS / REPLICAS);
    for (const count of accepted) expect(count).toBe(share);
    expect(total).toBeLessThanOrEqual(Math.floor(PER_ADDRESS * 1.1));
    for (const relay of relays) expect(await localDecisions(relay)).toBeGreaterThan(0);
  });
});
