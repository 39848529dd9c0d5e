/** Reading running relays' metrics, and waiting for relays to join their shared Redis. */
import { sampleSum } from '@strata/testing';
import type { RelayUnderTest } from './relay-under-test.js';

/** The sum of a metric's samples on a relay's /metrics; 0 when it has none. */
export async function metricOf(relay: RelayUnderTest, name: string): Promise<number> {
  const text = await (await fetch(`${relay.url}/metrics`)).text();
  return sampleSum(text, name) ?? 0;
}

/**
 * Waits until every relay is connected to its shared Redis: a relay takes traffic before its
 * connection is up, and decides those requests alone.
 */
export async function untilConnectedToRedis(
  relays: readonly RelayUnderTest[],
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const connected = async () =>
    (
      await Promise.all(relays.map((relay) => metricOf(relay, 'relay_shared_limits_connected')))
    ).every((value) => value === 1);
  while (!(await connected())) {
    if (Date.now() > deadline)
      throw new Error(`the relays did not connect to Redis in ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
