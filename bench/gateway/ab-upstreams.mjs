#!/usr/bin/env node
// The gateway's way to the render replicas, A/B on one running compose stack: A is the parent's
// upstream block (the replicas' addresses fixed at start, keep-alive pool of 64), B is this
// checkout's nginx.conf (names resolved per request, a new connection per request). Both run as
// extra gateway containers on the stack's networks, in front of the same replicas; autocannon
// loads one, then the other, alternating the order every round, and the report gives req/s and
// the B ÷ A medians.
//
//   docker-compose -p strata-bench up -d --build
//   node bench/gateway/ab-upstreams.mjs --project strata-bench --base <commit> [--rounds 8]
//     [--duration 8] [--connections 32] [--path /items]
//
// The base commit's infra/gateway/nginx.conf must still name the render replicas `render-1`
// and `render-2` (those lines are replaced by the current addresses): 4ba1101 or earlier.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const autocannon = createRequire(path.join(REPO, 'services/relay/package.json'))('autocannon');
const { values } = parseArgs({
  options: {
    project: { type: 'string' },
    base: { type: 'string' },
    rounds: { type: 'string', default: '8' },
    duration: { type: 'string', default: '8' },
    connections: { type: 'string', default: '32' },
    path: { type: 'string', default: '/items' },
  },
});
if (!values.project || !values.base) throw new Error('--project and --base are required');
const sh = (file, ...args) => execFileSync(file, args, { encoding: 'utf8' }).trim();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const renders = sh(
  'docker',
  'ps',
  '-q',
  '--filter',
  `label=com.docker.compose.project=${values.project}`,
  '--filter',
  'label=com.docker.compose.service=render',
).split('\n');
const addresses = renders.map((id) =>
  sh(
    'docker',
    'inspect',
    '-f',
    `{{(index .NetworkSettings.Networks "${values.project}_web").IPAddress}}`,
    id,
  ),
);
if (addresses.length !== 2)
  throw new Error(`expected 2 render replicas, found ${addresses.length}`);

const work = mkdtempSync(path.join(tmpdir(), 'gateway-ab-'));
const parentConf = sh('git', '-C', REPO, 'show', `${values.base}:infra/gateway/nginx.conf`)
  .replace('render-1:3000', `${addresses[0]}:3000`)
  .replace('render-2:3000', `${addresses[1]}:3000`);
if (parentConf.includes('render-1'))
  throw new Error(`${values.base}'s nginx.conf is not the expected one`);
writeFileSync(path.join(work, 'parent.conf'), parentConf);
const headers = path.join(REPO, 'infra/gateway/browser-headers.conf');

/** Starts one extra gateway on the stack's networks, published on a free loopback port. */
function gateway(name, mounts, command) {
  const id = sh(
    'docker',
    'run',
    '-d',
    '--rm',
    '--name',
    `${values.project}-ab-${name}`,
    '--network',
    `${values.project}_edge`,
    '-p',
    '127.0.0.1::8080',
    '--user',
    '101:101',
    '--read-only',
    '--tmpfs',
    '/tmp',
    ...mounts.flatMap((m) => ['-v', `${m}:ro`]),
    '-v',
    `${headers}:/etc/nginx/browser-headers.conf:ro`,
    'nginx:stable-bookworm',
    ...command,
  );
  // Published through the stack's edge network (the web network is internal), like the gateway.
  sh('docker', 'network', 'connect', `${values.project}_web`, id);
  const port = sh('docker', 'port', id, '8080').split('\n')[0].split(':').pop();
  return { name, id, url: `http://127.0.0.1:${port}${values.path}` };
}
const sides = [
  gateway(
    'A',
    [`${path.join(work, 'parent.conf')}:/etc/nginx/nginx.conf`],
    ['nginx', '-e', 'stderr', '-g', 'daemon off;'],
  ),
  gateway(
    'B',
    [
      `${path.join(REPO, 'infra/gateway/nginx.conf')}:/etc/nginx/nginx.conf`,
      `${path.join(REPO, 'infra/gateway/start.sh')}:/etc/nginx/start.sh`,
    ],
    ['sh', '/etc/nginx/start.sh'],
  ),
];
const load = (url, seconds) =>
  autocannon({ url, connections: Number(values.connections), duration: seconds });

try {
  await sleep(2000);
  for (const side of sides) await load(side.url, 2); // warm-up: caches, JIT, connections
  const rates = { A: [], B: [] };
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 === 0 ? sides : [...sides].reverse();
    for (const side of order) {
      const result = await load(side.url, Number(values.duration));
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${side.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      rates[side.name].push(result.requests.average);
    }
    console.log(
      `round ${round + 1}: A ${rates.A.at(-1).toFixed(0)} req/s, B ${rates.B.at(-1).toFixed(0)} req/s, B/A ${(rates.B.at(-1) / rates.A.at(-1)).toFixed(3)}`,
    );
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const pairs = rates.A.map((a, i) => rates.B[i] / a);
  console.log(
    `median A ${median(rates.A).toFixed(0)} req/s, B ${median(rates.B).toFixed(0)} req/s; median of pairs B/A ${median(pairs).toFixed(3)} (min ${Math.min(...pairs).toFixed(3)}, max ${Math.max(...pairs).toFixed(3)})`,
  );
} finally {
  for (const side of sides) execFileSync('docker', ['rm', '-f', side.id], { stdio: 'ignore' });
}
