// The relay A/B scenario: the honest benchmark load (filters on, fsync on, connections posting
// the SDK error envelope through the tunnel) on a built relay in front of one counting upstream.
// Every measurement starts fresh relays and spools, so no side inherits the other's spool; with
// `measureTogether` both sides' relays run and are loaded in the same seconds.
import { RELAY_NODE_FLAGS } from '../../scripts/stack/services.mjs';
import { measureLoad, warmUpAll } from '../kit/measure-load.mjs';
import { startService } from '../kit/service.mjs';
import { assignmentsOf, flagsOf } from '../kit/settings.mjs';
import { ENVELOPE_POST, tunnelUrl } from './lib/processes.mjs';
import { startRelay } from './lib/side-relay.mjs';

export const name = 'relay';
export const metrics = [
  { key: 'answersPerSecond', label: 'answers/s', better: 'higher' },
  { key: 'relayCpuUs', label: 'CPU µs/answer', better: 'lower' },
];
export const measuresTogether = true;

const LISTENING = /(?:listening|Server listening at) (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * One side from the environment: <L> the checkout, <L>_ENV (`VAR=value …`), <L>_ARGS (node
 * flags), <L>_NODE (the node binary; default: the one running the bench).
 */
export const sideFromEnv = (env, label, defaultRoot) => ({
  root: env[label] || defaultRoot,
  env: assignmentsOf(env[`${label}_ENV`]),
  flags: flagsOf(env[`${label}_ARGS`], RELAY_NODE_FLAGS),
  ...(env[`${label}_NODE`] && { node: env[`${label}_NODE`] }),
});

/** A side with the deployed flags and nothing else: what the guard compares. */
export const plainSide = (root) => sideFromEnv({}, 'A', root);

/**
 * Starts the upstream. A measurement starts fresh relays for the sides it loads (in the order
 * given; `pin.relay`: their CPUs), warms them, loads them in the same seconds and stops them.
 */
export async function open(sides, { duration, connections = 64, warmup = 2, pin = {} }) {
  const upstream = await startService({
    root: import.meta.dirname,
    script: 'upstream-server.mjs',
    env: { DELAY_MS: '0' },
    ready: { stdout: LISTENING },
  });
  const post = { ...ENVELOPE_POST, connections };

  async function measureSides(labels) {
    const relays = {};
    try {
      for (const label of labels)
        relays[label] = await startRelay(sides[label], upstream.url, pin.relay);
      const targets = Object.fromEntries(
        labels.map((label) => [
          label,
          { url: tunnelUrl(relays[label].url), pids: { relay: relays[label].pid } },
        ]),
      );
      await warmUpAll(targets, post, warmup);
      const measured = await measureLoad(targets, { ...post, duration });
      return Object.fromEntries(
        labels.map((label) => [
          label,
          {
            answersPerSecond: measured[label].perSecond,
            relayCpuUs: 1000 * measured[label].cpuMs.relay,
          },
        ]),
      );
    } finally {
      await Promise.all(Object.values(relays).map((relay) => relay.stop()));
    }
  }

  return {
    measure: async (label) => (await measureSides([label]))[label],
    /** Both sides' relays under load in the same seconds, started in `order`. */
    measureTogether: (order) => measureSides(order),
    close: () => upstream.stop(),
  };
}
