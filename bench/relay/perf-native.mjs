// Where a built relay's CPU goes, native frames included: starts the counting upstream and the
// relay from ROOT (its services/relay/dist, default settings) under --perf-basic-prof, warms up
// for 3 s, then records `perf record -g` of the relay for 10 s of the benchmark load and prints
// req/s and CPU µs per answer. Read the recording with
//   perf report -i OUT --no-children -g none --sort dso,sym --stdio
// Usage (needs Debian's linux-perf):
//   node bench/relay/perf-native.mjs <ROOT> <OUT>
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RELAY_NODE_FLAGS } from '../../scripts/stack/services.mjs';
import { cpuMs, postEnvelopes, relayBenchEnv, startServer, stopServer } from './lib/processes.mjs';

const [root, out] = process.argv.slice(2);
if (!root || !out) throw new Error('usage: node bench/relay/perf-native.mjs <ROOT> <OUT>');
const here = fileURLToPath(new URL('./', import.meta.url));
const upstream = await startServer([join(here, 'upstream-server.mjs')], { DELAY_MS: '0' });
const relay = await startServer(
  [...RELAY_NODE_FLAGS, '--perf-basic-prof', join(resolve(root), 'services/relay/dist/main.js')],
  relayBenchEnv(upstream.url, mkdtempSync(join(tmpdir(), 'relay-perf-spool-'))),
);
await postEnvelopes(relay.url, { connections: 64, duration: 3 });
const perf = spawn(
  'perf',
  ['record', '-F', '499', '-g', '-p', String(relay.child.pid), '-o', out, '--', 'sleep', '10'],
  { stdio: 'inherit' },
);
const before = cpuMs(relay.child.pid);
const result = await postEnvelopes(relay.url, { connections: 64, duration: 10 });
const cpu = cpuMs(relay.child.pid) - before;
await new Promise((done) => perf.on('exit', done));
console.log(
  JSON.stringify({
    root,
    reqPerSecond: result.requests.average,
    cpuMicrosecondsPerAnswer: Math.round((cpu * 1000) / Math.max(1, result.requests.total)),
  }),
);
await stopServer(relay.child);
await stopServer(upstream.child);
process.exit(0);
