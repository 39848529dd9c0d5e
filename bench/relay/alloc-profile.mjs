// Where the relay allocates per answer under the benchmark load: starts the counting upstream and
// a built relay with lib/allocation-sampler.mjs preloaded, warms up, samples every allocation
// (collected or not) during DURATION seconds of load, and prints the sites that allocate most,
// in bytes per answer. Compare two builds by running it once for each.
// Usage (from the repo root, after npm run build):
//   node bench/relay/alloc-profile.mjs [--relay <checkout, default .>] [--duration 10] [--top 30]
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

const { values } = parseArgs({
  options: {
    relay: { type: 'string', default: '.' },
    duration: { type: 'string', default: '10' },
    top: { type: 'string', default: '30' },
  },
});
const RELAY = resolve(values.relay);
const DURATION = Number(values.duration);
const TOP = Number(values.top);
const here = fileURLToPath(new URL('./', import.meta.url));

const work = mkdtempSync(join(tmpdir(), 'relay-alloc-'));
const out = join(work, 'allocations.heapprofile');
const upstream = await startServer([join(here, 'upstream-server.mjs')], { DELAY_MS: '0' });
const relay = await startServer(
  [
    ...RELAY_NODE_FLAGS,
    '--import',
    join(here, 'lib/allocation-sampler.mjs'),
    join(RELAY, 'services/relay/dist/main.js'),
  ],
  { ...relayBenchEnv(upstream.url, join(work, 'spool')), ALLOC_PROFILE_OUT: out },
);
const load = (duration) => postEnvelopes(relay.url, { connections: 64, duration });
await load(2);
relay.child.kill('SIGUSR2');
const result = await load(DURATION);
relay.child.kill('SIGUSR2');
while (!existsSync(out)) await sleep(100);
await sleep(500); // the write is synchronous; give a large file time to land
const profile = JSON.parse(readFileSync(out, 'utf8'));
await stopServer(relay.child);
await stopServer(upstream.child);
rmSync(work, { recursive: true, force: true });

const answers = result.requests.total;
const bySite = new Map();
let total = 0;
(function walk(node) {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/^file:\/\//, '')
    .replace(`${RELAY}/`, '')
    .replace(/^.*node_modules\//, '');
  const site = `${functionName || '(anonymous)'} ${file || '(native)'}:${lineNumber + 1}`;
  bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
  total += node.selfSize;
  for (const child of node.children) walk(child);
})(profile.head);

const kb = (bytes) => (bytes / answers / 1024).toFixed(2);
console.log(`relay at ${commitOf(RELAY)}`);
console.log(`${answers} answers in ${DURATION} s; ${kb(total)} KB allocated per answer\n`);
console.log('KB/answer  site');
for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, TOP))
  console.log(`${kb(bytes).padStart(9)}  ${site}`);
