// Where the relay allocates per answer under the benchmark load: starts the counting upstream and
// a built relay with lib/allocation-sampler.mjs preloaded, warms up, samples every allocation
// (collected or not) during DURATION seconds of load, and prints the sites that allocate most,
// in bytes per answer. Compare two builds by running it once for each.
// Usage (from the repo root, after npm run build):
//   node bench/relay/alloc-profile.mjs [--relay <checkout, default .>] [--duration 10] [--top 30]
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { commitOf } from './lib/processes.mjs';
import { sampleUnderLoad } from './lib/sampled-load.mjs';

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

const { result, profile } = await sampleUnderLoad({
  relayRoot: RELAY,
  sampler: 'allocation-sampler.mjs',
  duration: DURATION,
});

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
