// CPU profile of the relay under the benchmark load: starts the counting upstream and the relay
// (filters on, fsync on) with --cpu-prof, warms up, loads it for DURATION seconds with autocannon,
// stops it (SIGTERM writes the profile) and prints self time grouped by where it is spent.
// Usage (from the repo root):
//   node bench/relay/profile.mjs [--duration 10] [--connections 64] [--delay 0] [--out DIR]
// --delay 500 makes the upstream answer after 500 ms, so the profile shows the ingest side alone.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
const repo = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('./', import.meta.url));
const fixture = readFileSync(
  join(repo, 'services/relay/test/fixtures/sdk/browser-03-event.envelope'),
);
const dsn = JSON.parse(fixture.subarray(0, fixture.indexOf(10)).toString()).dsn;

function start(argv, env = {}) {
  const child = spawn(process.execPath, argv, {
    cwd: repo,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /(?:listening|Server listening at) (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out.slice(-500)}`)));
  });
}
const stop = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
const load = (url, duration) =>
  autocannon({
    url: `${url}/monitoring`,
    method: 'POST',
    body: fixture,
    headers: { 'content-type': 'text/plain;charset=UTF-8' },
    connections: CONNECTIONS,
    duration,
  });

const upstream = await start([join(here, 'upstream-server.mjs')], { DELAY_MS });
const spoolDir = mkdtempSync(join(tmpdir(), 'relay-prof-spool-'));
const relay = await start(
  [
    '--cpu-prof',
    `--cpu-prof-dir=${OUT}`,
    '--conditions=@strata/source',
    '--import',
    'tsx',
    'services/relay/src/main.ts',
  ],
  {
    RELAY_PORT: '0',
    RELAY_DSNS: dsn,
    RELAY_UPSTREAM: upstream.url,
    RELAY_SPOOL_DIR: spoolDir,
    RELAY_LOG_LEVEL: 'info',
    RELAY_SPOOL_MAX_BYTES: String(4 * 1024 * 1024 * 1024),
  },
);
await load(relay.url, 2);
const result = await load(relay.url, DURATION);
await stop(relay.child);
await stop(upstream.child);
rmSync(spoolDir, { recursive: true, force: true });
// The main thread's profile is the largest (tsx's loader thread writes a small one too).
const file = readdirSync(OUT)
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => ({ name, size: statSync(join(OUT, name)).size }))
  .sort((a, b) => b.size - a.size)[0].name;
console.log(`${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`);
console.log(`profile: ${join(OUT, file)}\n`);
console.log(summarizeProfile(JSON.parse(readFileSync(join(OUT, file), 'utf8'))));
