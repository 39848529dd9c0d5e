/**
 * A report sent again (an SDK's retry after an answer it never got) is forwarded once: the relay
 * answers every copy as accepted, with the event id, and spools only the first. A copy whose
 * first attempt failed is accepted when it comes again; envelopes without an event id, and the
 * same id under another project key, are never held back; ids are remembered for
 * RELAY_DEDUPE_WINDOW only, and with 0 every copy is forwarded.
 */
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../src/spool/test-support.js';
import { relayOnFaultySpool } from './harness/faulty-spool-relay.js';
import { metricOf } from './harness/relay-metrics.js';
import { relayPerTest } from './harness/relay-per-test.js';

const DSN = 'https://dedupekey@o1.ingest.example.com/21';
const OTHER_DSN = 'https://otherkey@o1.ingest.example.com/22';
const ID = '9ec79c33ec9942ab8353589fcb2e04dc';
const LATER_ID = '0d7a3b5e7f9c4e21a4b6c8d0e2f4a6b8';

const current = relayPerTest({ RELAY_DSNS: `${DSN},${OTHER_DSN}` });
const temp = tempDirs('relay-dedupe-');

const event = (id: string | undefined, dsn = DSN) =>
  `${JSON.stringify({ ...(id && { event_id: id }), dsn })}\n{"type":"event"}\n{"message":"sent again"}`;
const send = (body: string) => current.post('/monitoring', body);
const forwardedIds = () => current.upstream.received.map((r) => r.envelope?.header.event_id);
const metric = (name: string) => metricOf(current.relay, name);

/** Sends a last, new event and waits for it: what was spooled before it has been sent by then. */
async function forwardedAfterAll(expected: number): Promise<(string | unknown)[]> {
  expect((await send(event(LATER_ID, OTHER_DSN))).status).toBe(200);
  await current.upstream.waitFor(expected + 1);
  // The spool sends in order; a copy spooled before the marker would be here by now.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return forwardedIds().filter((id) => id !== LATER_ID);
}

describe('an event sent again', () => {
  it('is answered as accepted with its id every time and forwarded once', async () => {
    await current.start();
    for (let copy = 0; copy < 3; copy++) {
      const response = await send(event(ID));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ id: ID });
    }
    expect(await forwardedAfterAll(1)).toEqual([ID]);
    expect(await metric('relay_envelopes_duplicate_total')).toBe(2);
  });

  it('is forwarded again once its id is older than RELAY_DEDUPE_WINDOW', async () => {
    await current.start({ RELAY_DEDUPE_WINDOW: '300ms' });
    expect((await send(event(ID))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await send(event(ID))).status).toBe(200);
    expect(await forwardedAfterAll(2)).toEqual([ID, ID]);
  });

  it('is forwarded every time with RELAY_DEDUPE_WINDOW=0', async () => {
    await current.start({ RELAY_DEDUPE_WINDOW: '0' });
    for (let copy = 0; copy < 2; copy++) expect((await send(event(ID))).status).toBe(200);
    expect(await forwardedAfterAll(2)).toEqual([ID, ID]);
  });
});

describe('what is never held back', () => {
  it('an envelope without an event id', async () => {
    await current.start();
    for (let copy = 0; copy < 2; copy++) {
      const response = await send(event(undefined));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({});
    }
    expect(await forwardedAfterAll(2)).toEqual([undefined, undefined]);
  });

  it('the same event id under another project key', async () => {
    await current.start();
    for (const dsn of [DSN, OTHER_DSN]) expect((await send(event(ID, dsn))).status).toBe(200);
    expect(await forwardedAfterAll(2)).toEqual([ID, ID]);
  });

  it('a copy whose first attempt was answered with an error', async () => {
    await current.start();
    const dir = await temp.make();
    const { relay, faults } = await relayOnFaultySpool(DSN, current.upstream.url, dir);
    try {
      const attempt = () =>
        relay.app.inject({ method: 'POST', url: '/monitoring', payload: event(ID) });
      faults.spaceLeft = 100;
      expect((await attempt()).statusCode).toBe(500);
      faults.spaceLeft = Number.POSITIVE_INFINITY;
      const retry = await attempt();
      expect(retry.statusCode).toBe(200);
      await current.upstream.waitFor(1);
      expect(forwardedIds()).toEqual([ID]);
    } finally {
      await relay.shutdown(100);
      await temp.cleanup();
    }
  });
});
