// One side's built relay on a fresh spool in front of an upstream: what every relay bench that
// starts relays of a checkout shares (the A/B scenario, gc-stats.mjs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../../kit/service.mjs';
import { relayBenchEnv } from './processes.mjs';

const LISTENING = /(?:listening|Server listening at) (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * A fresh relay of `side` (`{ root, flags, env, node? }`) on a fresh spool in front of
 * `upstreamUrl`, on the CPUs in `cpus` when given; `stop` removes both. Its stdout stays piped
 * (`child.stdout`).
 */
export async function startRelay(side, upstreamUrl, cpus) {
  const spool = mkdtempSync(join(tmpdir(), 'relay-ab-'));
  const removeSpool = () => rmSync(spool, { recursive: true, force: true });
  try {
    const relay = await startService({
      root: side.root,
      script: 'services/relay/dist/main.js',
      flags: side.flags,
      node: side.node,
      env: { ...relayBenchEnv(upstreamUrl, spool), ...side.env },
      ready: { stdout: LISTENING },
      cpus,
      // NODE_ENV as the caller has it, as the relay benchmarks always ran (its results compare).
      production: false,
    });
    return { ...relay, stop: () => relay.stop().finally(removeSpool) };
  } catch (error) {
    removeSpool();
    throw error;
  }
}
