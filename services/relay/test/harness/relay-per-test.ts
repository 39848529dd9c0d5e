/**
 * A fresh fake upstream and relay for each test of a file, stopped after it, and the check every
 * such test ends with: the upstream saw no problems.
 */
import { afterEach, beforeEach } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from './fake-upstream.js';
import { startRelay, type RelayUnderTest } from './relay-under-test.js';

/** This test's upstream and relay (reading either before `start` throws). */
export interface RelayPerTest {
  readonly upstream: FakeUpstream;
  readonly relay: RelayUnderTest;
  /** Starts this test's upstream, and a relay for it on the file's env with `env` over it. */
  start(env?: Record<string, string>): Promise<void>;
  /** Replaces this test's relay with one on the file's env with `env` over it (same upstream). */
  restart(env?: Record<string, string>): Promise<void>;
  /** POSTs `body` to `path` on this test's relay. */
  post(
    path: string,
    body: Uint8Array | string,
    headers?: Record<string, string>,
  ): Promise<Response>;
}

/**
 * Registers the file's hooks. `fileEnv` goes over startRelay's defaults for every relay of the
 * file; with `startEachTest`, each test begins with its relay started on it.
 */
export function relayPerTest(
  fileEnv: Record<string, string>,
  options: { startEachTest?: boolean } = {},
): RelayPerTest {
  let upstream: FakeUpstream | undefined;
  let relay: RelayUnderTest | undefined;
  const current: RelayPerTest = {
    get upstream() {
      return upstream ?? notStarted();
    },
    get relay() {
      return relay ?? notStarted();
    },
    async start(env = {}) {
      upstream = await startFakeUpstream();
      relay = await startRelay(upstream, { ...fileEnv, ...env });
    },
    async restart(env = {}) {
      await current.relay.stop();
      relay = await startRelay(current.upstream, { ...fileEnv, ...env });
    },
    post(path, body, headers = {}) {
      return fetch(`${current.relay.url}${path}`, { method: 'POST', body, headers });
    },
  };
  if (options.startEachTest) beforeEach(() => current.start());
  afterEach(async () => {
    await relay?.stop();
    await upstream?.close();
    const problems = upstream?.problems ?? [];
    relay = undefined;
    upstream = undefined;
    if (problems.length > 0) throw new Error(`upstream problems: ${problems.join('; ')}`);
  });
  return current;
}

function notStarted(): never {
  throw new Error('no relay started for this test');
}
