/**
 * An event is never turned away as a duplicate because an earlier copy did not get through
 * whole: a copy the relay refused (the spool full, the DSN over its share of it, every item rate
 * limited), kept nothing of (every item filtered) or kept only part of (its event rate limited)
 * leaves its id free, so the SDK's retry is accepted and forwarded with the event. (A retry after
 * a failed spool write is in duplicates.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { relayPerTest } from './harness/relay-per-test.js';
import { metricOf } from './harness/relay-metrics.js';

const DSN = 'https://retrykey@o1.ingest.example.com/24';
const ID = '3f2b8c1d4e5a46b7a8c9d0e1f2a3b4c5';

const current = relayPerTest({ RELAY_DSNS: DSN });

const eventItem = (message: string) => `{"type":"event"}\n${JSON.stringify({ message })}`;
const event = (id: string, message = 'sent again') =>
  `${JSON.stringify({ event_id: id, dsn: DSN })}\n${eventItem(message)}`;
const send = (body: string) => current.post('/monitoring', body);
const metric = (name: string) => metricOf(current.relay, name);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition` holds (checked every 20 ms, for at most 10 s). */
async function until(what: string, condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await pause(20);
  }
}

/** ID's events that reached the upstream. */
const eventsOfId = () =>
  current.upstream.received.filter(
    (r) =>
      r.envelope?.header.event_id === ID && r.envelope.items.some((item) => item.type === 'event'),
  );

/** The retry of ID is answered as accepted, and ID's event reaches the upstream exactly once. */
async function expectRetryForwardedOnce(): Promise<void> {
  const retry = await send(event(ID));
  expect(retry.status).toBe(200);
  expect(await retry.json()).toEqual({ id: ID });
  await until('the event arrives', () => eventsOfId().length > 0);
  await pause(200);
  expect(eventsOfId()).toHaveLength(1);
}

/** Fills the spool with other events of ID's size until one is refused; then sends ID. */
async function fillUntilRefused(): Promise<Response> {
  const large = 'm'.repeat(900);
  for (let n = 1; n <= 100; n++) {
    const other = n.toString(16).padStart(32, '0');
    if ((await send(event(other, large))).status !== 200) return send(event(ID, large));
  }
  throw new Error('the spool refused nothing');
}

/** Lets the held upstream answer, and waits until the spool has delivered everything. */
async function drain(): Promise<void> {
  current.upstream.release();
  await until('the spool is empty', async () => (await metric('relay_spool_envelopes')) === 0);
}

/** Has the upstream limit errors for a second, and waits until the relay applies it. */
async function limitErrorsForASecond(): Promise<void> {
  current.upstream.script({ status: 429, headers: { 'x-sentry-rate-limits': '1:error:key' } });
  expect((await send(event('0'.repeat(31) + '1'))).status).toBe(200);
  await until('the limit applies', async () => (await metric('relay_rate_limit_seconds')) > 0);
}

const limitEnded = async () => (await metric('relay_rate_limit_seconds')) === 0;

describe('a copy sent again after its first copy', () => {
  it('was answered 503 RELAY_SPOOL_FULL is accepted and forwarded', async () => {
    // One record a segment, so a delivered envelope's bytes are given back at once.
    await current.start({
      RELAY_SPOOL_MAX_BYTES: '2000',
      RELAY_SPOOL_SEGMENT_BYTES: '1',
      RELAY_SPOOL_PROJECT_SHARE: '1',
    });
    current.upstream.hold();
    const refused = await fillUntilRefused();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: 'RELAY_SPOOL_FULL' } });
    await drain();
    await expectRetryForwardedOnce();
  });

  it('was answered 429 RELAY_SPOOL_SHARE_EXCEEDED is accepted and forwarded', async () => {
    await current.start({ RELAY_SPOOL_MAX_BYTES: '4000', RELAY_SPOOL_PROJECT_SHARE: '0.5' });
    current.upstream.hold();
    const refused = await fillUntilRefused();
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: 'RELAY_SPOOL_SHARE_EXCEEDED' } });
    await drain();
    await expectRetryForwardedOnce();
  });

  it('was answered 429 RELAY_RATE_LIMITED is accepted and forwarded once the limit ends', async () => {
    await current.start();
    await limitErrorsForASecond();
    const limited = await send(event(ID));
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ error: { code: 'RELAY_RATE_LIMITED' } });
    await until('the limit ends', limitEnded);
    await expectRetryForwardedOnce();
  });

  it('was kept in no part (every item filtered) is accepted and forwarded', async () => {
    await current.start();
    // The script-error filter (on by default) drops the first copy: 200, nothing spooled.
    expect((await send(event(ID, 'Script error.'))).status).toBe(200);
    expect(await metric('relay_items_dropped_total')).toBe(1);
    await expectRetryForwardedOnce();
  });

  it('was kept only in part (its event rate limited) is accepted and forwarded with the event', async () => {
    await current.start();
    await limitErrorsForASecond();
    // A client report is only held back by a limit on every category: it is kept, the event not.
    const report = JSON.stringify({
      timestamp: Date.now() / 1000,
      discarded_events: [{ reason: 'queue_overflow', category: 'error', quantity: 1 }],
    });
    const partly = await send(
      `${JSON.stringify({ event_id: ID, dsn: DSN })}\n${eventItem('sent again')}\n{"type":"client_report"}\n${report}`,
    );
    expect(partly.status).toBe(200);
    await until('the report arrives', () =>
      current.upstream.received.some((r) => r.envelope?.header.event_id === ID),
    );
    expect(eventsOfId()).toHaveLength(0);
    await until('the limit ends', limitEnded);
    await expectRetryForwardedOnce();
  });
});
