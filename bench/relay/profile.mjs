// CPU profile of a built relay under the benchmark load: starts the counting upstream and the
// relay (filters on, fsync on) with lib/cpu-sampler.mjs preloaded, warms up, profiles DURATION
// seconds of load only, and prints the main thread's time per answer grouped by where it is
// spent. Compare two builds by running it once for each.
// Usage (from the repo root, after npm run build):
//   node bench/relay/profile.mjs [--relay <checkout, default .>] [--duration 10]
//     [--connections 64] [--delay 0] [--out FILE]
// --delay 500 makes the upstream answer after 500 ms, so the profile shows the ingest side alone.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { commitOf } from './lib/processes.mjs';
import { sampleUnderLoad } from './lib/sampled-load.mjs';
import { profileMarkdown, summariseProfile } from '../kit/profile-summary.mjs';
import { RELAY_STAGES } from './profile-stages.mjs';

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

const { result, profile, file } = await sampleUnderLoad({
  relayRoot: RELAY,
  sampler: 'cpu-sampler.mjs',
  // Kept only when asked for: a profile of 10 s is tens of MB.
  out: values.out && resolve(values.out),
  duration: Number(values.duration),
  connections: Number(values.connections),
  upstreamDelayMs: Number(values.delay),
});

console.log(`relay at ${commitOf(RELAY)}`);
console.log(`${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`);
if (values.out) console.log(`profile: ${file}`);
console.log('');
console.log(
  profileMarkdown('relay', summariseProfile(profile, { stages: RELAY_STAGES }), {
    requests: result.requests.total,
  }),
);
