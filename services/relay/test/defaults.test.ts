/**
 * What a relay started with its default configuration does, end to end: the documented value
 * cap reaches the upstream, and the debug endpoint is off unless local development turns it on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadRelayConfig, withDevDefaults } from '../src/config.js';
import { startFakeUpstream, type FakeUpstream } from './harness/fake-upstream.js';
import { startRelay, type RelayUnderTest } from './harness/relay-under-test.js';

const DSN = 'https://defaults0key@o1.ingest.example.com/71';
/** docs/relay.md, "Caps": message and exception values are cut to 250 characters plus `...`. */
const DOCUMENTED_VALUE_CAP = 250;
let upstream: FakeUpstream;
let relay: RelayUnderTest;

afterEach(async () => {
  await relay.stop();
  await upstream.close();
  if (upstream.problems.length > 0)
    throw new Error(`upstream problems: ${upstream.problems.join('; ')}`);
});

async function startWithDefaults(env: Record<string, string> = {}): Promise<void> {
  upstream = await startFakeUpstream();
  relay = await startRelay(upstream, { RELAY_DSNS: DSN, ...env });
}

describe('a relay with its default configuration', () => {
  it('caps message and exception values at the documented length before forwarding', async () => {
    await startWithDefaults();
    const long = 'v'.repeat(1000);
    const event = {
      message: long,
      exception: { values: [{ type: 'Error', value: long }] },
    };
    const response = await fetch(`${relay.url}/monitoring`, {
      method: 'POST',
      body: `{"dsn":"${DSN}"}\n{"type":"event"}\n${JSON.stringify(event)}`,
    });
    expect(response.status).toBe(200);
    await upstream.waitFor(1);
    const payload = upstream.received[0]!.envelope!.items[0]!.payload;
    const forwarded = JSON.parse(Buffer.from(payload).toString()) as typeof event;
    const capped = `${'v'.repeat(DOCUMENTED_VALUE_CAP)}...`;
    expect(forwarded.message).toBe(capped);
    expect(forwarded.exception.values[0]!.value).toBe(capped);
  });

  it('does not serve the debug endpoint', async () => {
    await startWithDefaults();
    const response = await fetch(`${relay.url}/debug/explain`, {
      method: 'POST',
      body: `{"dsn":"${DSN}"}\n{"type":"event"}\n{}`,
    });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'RELAY_NOT_FOUND',
    );
  });

  it('serves the debug endpoint under the local-development defaults', async () => {
    expect(loadRelayConfig({}).RELAY_DEBUG_ENDPOINT).toBe(false);
    const dev = withDevDefaults({});
    expect(loadRelayConfig(dev).RELAY_DEBUG_ENDPOINT).toBe(true);
    await startWithDefaults({ RELAY_DEBUG_ENDPOINT: dev.RELAY_DEBUG_ENDPOINT! });
    const response = await fetch(`${relay.url}/debug/explain`, {
      method: 'POST',
      body: `{"dsn":"${DSN}"}\n{"type":"event"}\n{}`,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ dsn: '71:defaults0key', wouldForward: true });
  });
});
