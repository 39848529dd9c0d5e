// Garbage collection of a built relay under the benchmark load, run after run: for each run a
// fresh relay with --trace-gc-nvp, a 2 s warm-up, then DURATION seconds of load; prints req/s,
// the relay's CPU per answer (all threads), scavenges and mark-compacts, GC pause per answer and
// bytes promoted per answer. Tells whether a fast or slow run differs in its collector.
// Usage (from the repo root, after npm run build):
//   node bench/relay/gc-stats.mjs [--relay <checkout, default .>] [--runs 4] [--duration 8]
//     [--node-args "<flags; default the deployed ones; none for no flags>"]
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RELAY_NODE_FLAGS } from '../../scripts/stack/services.mjs';
import { measureLoad, warmUpAll } from '../kit/measure-load.mjs';
import { countsByKind, gcTotals } from '../kit/gc-trace.mjs';
import { flagsOf } from '../kit/settings.mjs';
import { ENVELOPE_POST, commitOf, startServer, stopServer, tunnelUrl } from './lib/processes.mjs';
import { startRelay } from './lib/side-relay.mjs';

const { values } = parseArgs({
  options: {
    relay: { type: 'string', default: '.' },
    runs: { type: 'string', default: '4' },
    duration: { type: 'string', default: '8' },
    'node-args': { type: 'string' },
  },
});
const RELAY = resolve(values.relay);
const flags = flagsOf(values['node-args'], RELAY_NODE_FLAGS);
const here = fileURLToPath(new URL('./', import.meta.url));

console.log(`relay at ${commitOf(RELAY)}, node ${flags.join(' ') || '(no flags)'}`);
const upstream = await startServer([join(here, 'upstream-server.mjs')], { DELAY_MS: '0' });
const post = { ...ENVELOPE_POST, connections: 64 };
for (let run = 1; run <= Number(values.runs); run += 1) {
  const side = { root: RELAY, env: {}, flags: [...flags, '--trace-gc-nvp'] };
  const relay = await startRelay(side, upstream.url);
  const target = { relay: { url: tunnelUrl(relay.url), pids: { relay: relay.pid } } };
  await warmUpAll(target, post, 2);
  let trace = '';
  relay.child.stdout.on('data', (chunk) => (trace += chunk));
  const measured = (await measureLoad(target, { ...post, duration: Number(values.duration) }))
    .relay;
  const answers = measured.completed;
  const gc = gcTotals(trace);
  console.log(
    `run ${run}: ${Math.round(measured.perSecond)} req/s, ${(measured.cpuMs.relay * 1000).toFixed(0)} µs CPU/answer,` +
      ` collections ${JSON.stringify(countsByKind(gc))}, pause ${((gc.pauseMs * 1000) / answers).toFixed(1)} µs/answer,` +
      ` promoted ${(gc.promoted / answers / 1024).toFixed(2)} KB/answer`,
  );
  await relay.stop();
}
await stopServer(upstream.child);
