// CPU profile of a built relay under the benchmark load: starts the counting upstream and the
// relay (filters on, fsync on) with lib/cpu-sampler.mjs preloaded, warms up, profiles DURATION
// seconds of load only, and prints the main thread's time per answer grouped by where it is
// spent. Compare two builds by running it once for each.
// Usage (from the repo root, after npm run build):
//   node bench/relay/profile.mjs [--relay <checkout, default .>] [--duration 10]
//     [--connections 64] [--delay 0] [--out FILE]
// --delay 500 makes the upstream answer after 500 ms, so the profile shows the ingest side alone.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RELAY_NODE_FLAGS } from '../../scripts/stack/services.mjs';
import {
  commitOf,
  postEnvelopes,
  relayBenchEnv,
  startServer,
  stopServer,
} from './lib/processes.mjs';
import { summarizeProfile } from './profile-summary.mjs';

const { values } = parseArgs({
  options: {
    relay: { type: 'string', default: '.' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    delay: { type: 'string', default: '0' },
    out: { type: 'string' },
  },
});
const RELAY = resolve(values.relay);
const here = fileURLToPath(new URL('./', import.meta.url));

const work = mkdtempSync(join(tmpdir(), 'relay-prof-'));
const out = resolve(values.out ?? join(work, 'relay.cpuprofile'));
const upstream = await startServer([join(here, 'upstream-server.mjs')], {
  DELAY_MS: values.delay,
});
const relay = await startServer(
  [
    ...RELAY_NODE_FLAGS,
    '--import',
    join(here, 'lib/cpu-sampler.mjs'),
    join(RELAY, 'services/relay/dist/main.js'),
  ],
  { ...relayBenchEnv(upstream.url, join(work, 'spool')), CPU_PROFILE_OUT: out },
);
const load = (duration) =>
  postEnvelopes(relay.url, { connections: Number(values.connections), duration });
await load(2);
relay.child.kill('SIGUSR2');
const result = await load(Number(values.duration));
relay.child.kill('SIGUSR2');
while (!existsSync(out)) await sleep(100);
await sleep(500); // the write is synchronous; give a large file time to land
const profile = JSON.parse(readFileSync(out, 'utf8'));
await stopServer(relay.child);
await stopServer(upstream.child);
rmSync(join(work, 'spool'), { recursive: true, force: true });

console.log(`relay at ${commitOf(RELAY)}`);
console.log(`${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`);
console.log(`profile: ${out}\n`);
console.log(summarizeProfile(profile, { answers: result.requests.total }));
