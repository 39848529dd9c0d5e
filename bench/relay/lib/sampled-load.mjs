// What profile.mjs and alloc-profile.mjs share: a counting upstream and a built relay with a
// sampler preloaded (lib/cpu-sampler.mjs or lib/allocation-sampler.mjs, both switched by
// SIGUSR2), a warm-up, then the sampler runs for exactly the measured load and its profile is
// read back.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { RELAY_NODE_FLAGS } from '../../../scripts/stack/services.mjs';
import { postEnvelopes, relayBenchEnv, startServer, stopServer } from './processes.mjs';

const bench = fileURLToPath(new URL('../', import.meta.url));

/**
 * Loads the relay built under `relayRoot` for `duration` s with `sampler` on; resolves with
 * autocannon's result and the parsed profile (written to `out`, else to a temporary file; the
 * samplers write where PROFILE_OUT says).
 */
export async function sampleUnderLoad({
  relayRoot,
  sampler,
  out,
  duration,
  connections = 64,
  upstreamDelayMs = 0,
}) {
  const work = mkdtempSync(join(tmpdir(), 'relay-sampled-'));
  const file = out ?? join(work, 'profile.json');
  const upstream = await startServer([join(bench, 'upstream-server.mjs')], {
    DELAY_MS: String(upstreamDelayMs),
  });
  const relay = await startServer(
    [
      ...RELAY_NODE_FLAGS,
      '--import',
      join(bench, 'lib', sampler),
      join(relayRoot, 'services/relay/dist/main.js'),
    ],
    { ...relayBenchEnv(upstream.url, join(work, 'spool')), PROFILE_OUT: file },
  );
  const load = (seconds) => postEnvelopes(relay.url, { connections, duration: seconds });
  await load(2);
  relay.child.kill('SIGUSR2');
  const result = await load(duration);
  relay.child.kill('SIGUSR2');
  while (!existsSync(file)) await sleep(100);
  await sleep(500); // the write is synchronous; give a large file time to land
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  await stopServer(relay.child);
  await stopServer(upstream.child);
  rmSync(work, { recursive: true, force: true });
  return { result, profile, file };
}
