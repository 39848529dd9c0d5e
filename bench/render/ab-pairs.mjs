#!/usr/bin/env node
// A/B of two render + data pairs at full speed: each side is a data service and a render service
// from a built checkout, with its own node flags; the anchors' autocannon (50 connections) loads
// `/bench/items` on one side, then the other, alternating the order every round. Reports req/s
// and each service's CPU per request (/proc utime + stime ÷ completed requests), and the B ÷ A
// medians. A smaller, quicker tool than experiments.mjs for one change at a time.
//
//   A=<built checkout> B=<built checkout> node bench/render/ab-pairs.mjs
//   A=. B=. B_DATA_ARGS=--max-semi-space-size=64 node bench/render/ab-pairs.mjs   # a flag alone
//
// Env: A, B (roots; default this checkout), A_RENDER_ARGS, A_DATA_ARGS, B_RENDER_ARGS,
//      B_DATA_ARGS (node flags after SERVICE_NODE_FLAGS), A_BASE_FLAGS, B_BASE_FLAGS (that side's
//      flags instead of SERVICE_NODE_FLAGS; `none` for none), A_DATA_ENV, B_DATA_ENV (`VAR=value …` for that side's data
//      service, over lib/service-env.mjs), ROUNDS (4), DURATION (6 s, after a 1 s warm-up),
//      CONNECTIONS (50),
//      ANCHORS (for autocannon), NAME (results/<NAME>/ab.md; default ab-<UTC time>)
// Full-speed runs on a shared 2-core machine differ by up to ~8% between two identical sides:
// run a comparison both ways round (swap A and B) before believing a few percent.
import fs from 'node:fs';
import path from 'node:path';
import { REPO, autocannon, cpuTicks, resultsDir, untilOk } from './lib/bench-setup.mjs';
import { BENCH_DATA_ENV, benchRenderEnv, launchService } from './lib/service-env.mjs';

const env = process.env;
const ROUNDS = Number(env.ROUNDS || 4);
const DURATION = Number(env.DURATION || 6);
const CONNECTIONS = Number(env.CONNECTIONS || 50);
const OUT = resultsDir('ab');
const NAME = path.basename(OUT);
const args = (value) => (value || '').split(' ').filter(Boolean);
/** `VAR=value VAR2=value` words as an environment object. */
const assignments = (value) =>
  Object.fromEntries(
    args(value).map((word) => [word.split('=')[0], word.split('=').slice(1).join('=')]),
  );
const TICK_MS = 1000 / 100; // USER_HZ

function launch(root, nodeArgs, script, extraEnv, baseFlags) {
  const child = launchService(root, nodeArgs, script, extraEnv, baseFlags);
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`${root} ${script} exited (${code ?? signal})`);
  });
  return child;
}

let stopping = false;
const sides = ['A', 'B'].map((label, index) => {
  const root = path.resolve(env[label] || REPO);
  const dataPort = 50481 + index;
  const renderPort = 3321 + index;
  const base = env[`${label}_BASE_FLAGS`];
  const baseFlags = base === undefined ? undefined : base === 'none' ? [] : args(base);
  const data = launch(
    root,
    args(env[`${label}_DATA_ARGS`]),
    'services/data/dist/main.js',
    {
      ...BENCH_DATA_ENV,
      DATA_PORT: String(dataPort),
      ...assignments(env[`${label}_DATA_ENV`]),
    },
    baseFlags,
  );
  const render = launch(
    root,
    args(env[`${label}_RENDER_ARGS`]),
    'services/render/dist/main.js',
    benchRenderEnv({ renderPort, dataPort }),
    baseFlags,
  );
  const flags = `${baseFlags ? `base [${baseFlags.join(' ')}], ` : ''}render [${args(env[`${label}_RENDER_ARGS`]).join(' ')}], data [${[...args(env[`${label}_DATA_ENV`]), ...args(env[`${label}_DATA_ARGS`])].join(' ')}]`;
  return {
    label,
    root,
    flags,
    data,
    render,
    url: `http://127.0.0.1:${renderPort}/bench/items`,
    runs: [],
  };
});

const load = (url, duration) => autocannon({ url, connections: CONNECTIONS, duration });
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
const lines = [];
const say = (line) => {
  console.log(line);
  lines.push(line);
};

try {
  for (const side of sides) await untilOk(side.url);
  for (const side of sides) await load(side.url, 3); // JIT and caches warm on both sides
  for (let round = 0; round < ROUNDS; round++)
    for (const side of round % 2 ? [...sides].reverse() : sides) {
      await load(side.url, 1);
      const render0 = cpuTicks(side.render.pid);
      const data0 = cpuTicks(side.data.pid);
      const result = await load(side.url, DURATION);
      const requests = result.requests.total;
      const run = {
        rps: requests / DURATION,
        render: ((cpuTicks(side.render.pid) - render0) * TICK_MS) / requests,
        data: ((cpuTicks(side.data.pid) - data0) * TICK_MS) / requests,
        failed: result.non2xx + result.errors + result.timeouts,
      };
      side.runs.push(run);
      say(
        `round ${round + 1} ${side.label}: ${run.rps.toFixed(0)} req/s, render ${run.render.toFixed(3)} ms/req, data ${run.data.toFixed(3)} ms/req, failed ${run.failed}`,
      );
    }
} finally {
  stopping = true;
  for (const side of sides) {
    side.render.kill();
    side.data.kill();
  }
}

const [a, b] = sides;
const table = [
  `${NAME}: ${ROUNDS} rounds, ${CONNECTIONS} connections, 1 s warm-up + ${DURATION} s, sides alternating.`,
  '',
  ...sides.map((s) => `- ${s.label}: ${s.root}, ${s.flags}`),
  '',
  '| measure | A (median) | B (median) | B ÷ A | B ÷ A per round |',
  '|---|---:|---:|---:|---|',
  ...[
    ['req/s', 'rps'],
    ['render CPU ms/req', 'render'],
    ['data CPU ms/req', 'data'],
  ].map(([title, key]) => {
    const [ma, mb] = [median(a.runs.map((r) => r[key])), median(b.runs.map((r) => r[key]))];
    const perRound = a.runs.map((r, i) => (b.runs[i][key] / r[key]).toFixed(2)).join(' / ');
    return `| ${title} | ${ma.toFixed(3)} | ${mb.toFixed(3)} | ${(mb / ma).toFixed(3)} | ${perRound} |`;
  }),
  '',
  'Runs:',
  '',
  ...lines.map((line) => `    ${line}`),
];
fs.mkdirSync(OUT, { recursive: true });
fs.writeFileSync(path.join(OUT, 'ab.md'), `${table.join('\n')}\n`);
console.log(`\n${table.slice(0, 10).join('\n')}\nwrote ${path.relative(REPO, OUT)}/ab.md`);
