/**
 * The Spotlight upstream kind (local development): envelopes go to the sidecar's `/stream`
 * endpoint unchanged, with the envelope content type.
 */
import { afterEach, expect, it } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './harness/fake-upstream.js';
import { startRelay, type RelayUnderTest } from './harness/relay-under-test.js';

let upstream: FakeUpstream;
let relay: RelayUnderTest;

afterEach(async () => {
  await relay.stop();
  await upstream.close();
  if (upstream.problems.length > 0) throw new Error(upstream.problems.join('; '));
});

it('forwards to Spotlight /stream', async () => {
  upstream = await startFakeUpstream();
  const dsn = 'http://strata0dev0key@localhost:3100/1';
  relay = await startRelay(upstream, { RELAY_DSNS: dsn, RELAY_UPSTREAM_KIND: 'spotlight' });
  const body = `{"dsn":"${dsn}"}\n{"type":"event"}\n{"message":"seen in Spotlight"}`;
  const response = await fetch(`${relay.url}/monitoring`, { method: 'POST', body });
  expect(response.status).toBe(200);
  await upstream.waitFor(1);
  expect(upstream.received[0]?.url).toBe('/stream');
  expect(upstream.received[0]?.headers['content-type']).toBe('application/x-sentry-envelope');
  expect(upstream.received[0]?.body.toString()).toBe(body);
});

it('applies per-project filter options', async () => {
  upstream = await startFakeUpstream();
  const dsn = 'https://k1@o1.ingest.example.com/11';
  relay = await startRelay(upstream, {
    RELAY_DSNS: dsn,
    RELAY_PROJECT_OPTIONS: '{"11":{"filters":["error-message"],"errorMessages":["*flaky*"]}}',
  });
  const send = (message: string) =>
    fetch(`${relay.url}/monitoring`, {
      method: 'POST',
      body: `{"dsn":"${dsn}"}\n{"type":"event"}\n{"message":"${message}"}`,
    });
  await send('a flaky test');
  await send('Script error.'); // the spec filters are replaced for this project
  await upstream.waitFor(1);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(upstream.received.map((r) => r.body.toString())).toEqual([
    `{"dsn":"${dsn}"}\n{"type":"event"}\n{"message":"Script error."}`,
  ]);
});
