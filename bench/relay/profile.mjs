// CPU profile of the relay under the benchmark load: starts the counting upstream and the relay
// (filters on, fsync on) with --cpu-prof, warms up, loads it for DURATION seconds with autocannon,
// stops it (SIGTERM writes the profile) and prints self time grouped by where it is spent.
// Usage (from the repo root):
//   node bench/relay/profile.mjs [--duration 10] [--connections 64] [--delay 0] [--out DIR]
// --delay 500 makes the upstream answer after 500 ms, so the profile shows the ingest side alone.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RELAY_NODE_FLAGS } from '../../scripts/stack/services.mjs';
import { postEnvelopes, relayBenchEnv, startServer, stopServer } from './lib/processes.mjs';
import { summarizeProfile } from './profile-summary.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? fallback : args[index + 1];
};
const DURATION = Number(option('duration', 10));
const CONNECTIONS = Number(option('connections', 64));
const DELAY_MS = option('delay', '0');
const OUT = option('out', mkdtempSync(join(tmpdir(), 'relay-prof-')));
const here = fileURLToPath(new URL('./', import.meta.url));

const upstream = await startServer([join(here, 'upstream-server.mjs')], { DELAY_MS });
const spoolDir = mkdtempSync(join(tmpdir(), 'relay-prof-spool-'));
const relay = await startServer(
  [
    ...RELAY_NODE_FLAGS,
    '--cpu-prof',
    `--cpu-prof-dir=${OUT}`,
    '--conditions=@strata/source',
    '--import',
    'tsx',
    'services/relay/src/main.ts',
  ],
  relayBenchEnv(upstream.url, spoolDir),
);
const load = (duration) => postEnvelopes(relay.url, { connections: CONNECTIONS, duration });
await load(2);
const result = await load(DURATION);
await stopServer(relay.child);
await stopServer(upstream.child);
rmSync(spoolDir, { recursive: true, force: true });
// The main thread's profile is the largest (tsx's loader thread writes a small one too).
const file = readdirSync(OUT)
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => ({ name, size: statSync(join(OUT, name)).size }))
  .sort((a, b) => b.size - a.size)[0].name;
console.log(`${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`);
console.log(`profile: ${join(OUT, file)}\n`);
console.log(summarizeProfile(JSON.parse(readFileSync(join(OUT, file), 'utf8'))));
