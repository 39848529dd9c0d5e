// One built relay on its own fresh spool, for the relay benches that watch a single relay run
// after run (gc-stats.mjs): its node flags, starting it, and its CPU per answer under load. The
// A/B tools go through scenario.mjs and the kit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RELAY_NODE_FLAGS } from '../../../scripts/stack/services.mjs';
import { cpuMs, postEnvelopes, relayBenchEnv, startServer, stopServer } from './processes.mjs';

/** Node flags from a `--flag …` string: the deployed ones when absent (empty: none). */
export const flagsOf = (value) =>
  value === undefined ? RELAY_NODE_FLAGS : value.split(' ').filter(Boolean);

/** Starts one side's built relay on a fresh spool in front of `upstreamUrl`; `stop` removes both. */
export async function startSideRelay(side, upstreamUrl, { cpus } = {}) {
  const spool = mkdtempSync(join(tmpdir(), 'relay-ab-'));
  try {
    const relay = await startServer(
      [...side.args, join(side.root, 'services/relay/dist/main.js')],
      { ...relayBenchEnv(upstreamUrl, spool), ...side.env },
      { cpus },
    );
    return {
      ...relay,
      async stop() {
        await stopServer(relay.child);
        rmSync(spool, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(spool, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Loads a started relay for `duration` seconds; autocannon's result, req/s and the relay's CPU
 * per answer (all threads). Any non-2xx answer or error fails the measurement.
 */
export async function measureLoad(relay, { connections, duration }) {
  const cpuBefore = cpuMs(relay.child.pid);
  const result = await postEnvelopes(relay.url, { connections, duration });
  const cpu = (cpuMs(relay.child.pid) - cpuBefore) * 1000;
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${relay.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { result, rps: result.requests.average, cpuPerAnswer: cpu / result['2xx'] };
}
