// The relay A/B scenario: the honest benchmark load (filters on, fsync on, connections posting
// the SDK error envelope through the tunnel) on a built relay in front of one counting upstream.
// Every measurement starts a fresh relay and spool, so no side inherits the other's spool.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RELAY_NODE_FLAGS } from '../../scripts/stack/services.mjs';
import { cpuMs } from '../kit/cpu.mjs';
import { load, warmUp } from '../kit/load.mjs';
import { cpuMsPerRequest } from '../kit/proc-stat.mjs';
import { startService } from '../kit/service.mjs';
import { assignmentsOf, flagsOf } from '../kit/settings.mjs';
import { envelopeRequest, relayBenchEnv } from './lib/processes.mjs';

export const name = 'relay';
export const metrics = [
  { key: 'answersPerSecond', label: 'answers/s', better: 'higher' },
  { key: 'relayCpuUs', label: 'CPU µs/answer', better: 'lower' },
];

const LISTENING = /(?:listening|Server listening at) (http:\/\/127\.0\.0\.1:\d+)/;

/** One side from the environment: <L> the checkout, <L>_ENV (`VAR=value …`), <L>_ARGS (node flags). */
export const sideFromEnv = (env, label, defaultRoot) => ({
  root: env[label] || defaultRoot,
  env: assignmentsOf(env[`${label}_ENV`]),
  flags: flagsOf(env[`${label}_ARGS`], RELAY_NODE_FLAGS),
});

/** A side with the deployed flags and nothing else: what the guard compares. */
export const plainSide = (root) => sideFromEnv({}, 'A', root);

const envelopes = (url, connections, duration) => ({
  ...envelopeRequest(url),
  connections,
  duration,
});

/** Starts the upstream; each measurement runs on a fresh relay of that side (`pin.relay`: its CPUs). */
export async function open(sides, { duration, connections = 64, warmup = 2, pin = {} }) {
  const upstream = await startService({
    root: import.meta.dirname,
    script: 'upstream-server.mjs',
    env: { DELAY_MS: '0' },
    ready: { stdout: LISTENING },
  });
  return {
    async measure(label) {
      const side = sides[label];
      const spool = mkdtempSync(join(tmpdir(), 'relay-ab-'));
      const relay = await startService({
        root: side.root,
        script: 'services/relay/dist/main.js',
        flags: side.flags,
        env: { ...relayBenchEnv(upstream.url, spool), ...side.env },
        ready: { stdout: LISTENING },
        cpus: pin.relay,
        // NODE_ENV as the caller has it, as the relay benchmarks always ran (its results compare).
        production: false,
      });
      try {
        await warmUp(envelopes(relay.url, connections), warmup);
        const before = cpuMs(relay.pid);
        const outcome = await load(envelopes(relay.url, connections, duration));
        if (outcome.failed > 0) throw new Error(`${label}: ${outcome.failed} failed posts`);
        return {
          answersPerSecond: outcome.perSecond,
          relayCpuUs: 1000 * cpuMsPerRequest(before, cpuMs(relay.pid), outcome.completed),
        };
      } finally {
        await relay.stop();
        rmSync(spool, { recursive: true, force: true });
      }
    },
    close: () => upstream.stop(),
  };
}
