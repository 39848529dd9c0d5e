#!/usr/bin/env node
// A/B of two built relays under the honest benchmark load (bench/relay/run.mjs's relay row:
// filters on, fsync on, 64 connections posting the SDK error envelope through the tunnel). Each
// round runs A then B, or B then A on odd rounds, each on a fresh relay and spool in front of one
// counting upstream; reports accepted req/s and the relay's CPU per answer for every round, the
// B ÷ A ratio of each pair and their medians. run.mjs measures each row once, in a fixed order;
// on a shared machine that order decides a few-percent comparison, this tool does not.
//
//   A=<built checkout> B=<built checkout> node bench/relay/ab-pairs.mjs
//
// Env: A, B (roots with services/relay/dist built; default this checkout), A_ENV, B_ENV
// (`VAR=value …` over the bench settings for that side), A_ARGS, B_ARGS (that side's node flags;
// default the deployed ones, RELAY_NODE_FLAGS; empty for none), ROUNDS (8), DURATION (10 s,
// after a 2 s warm-up), CONNECTIONS (64), NAME (results/<NAME>.md; default ab-<UTC time>),
// RELAY_CPUS (pin both relays to these CPUs, e.g. 0; run the script itself under `taskset -c 1`
// so the load and the upstream stay off them: the relay then competes with nothing but itself).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RELAY_NODE_FLAGS } from '../../scripts/stack/services.mjs';
import {
  commitOf,
  cpuMs,
  postEnvelopes,
  relayBenchEnv,
  startServer,
  stopServer,
} from './lib/processes.mjs';

const env = process.env;
const here = fileURLToPath(new URL('./', import.meta.url));
const ROUNDS = Number(env.ROUNDS || 8);
const DURATION = Number(env.DURATION || 10);
const CONNECTIONS = Number(env.CONNECTIONS || 64);
const NAME = env.NAME || `ab-${new Date().toISOString().slice(0, 16).replace(':', '-')}`;
const assignments = (value) =>
  Object.fromEntries(
    (value || '')
      .split(' ')
      .filter(Boolean)
      .map((word) => [word.split('=')[0], word.split('=').slice(1).join('=')]),
  );
const flagsOf = (value) =>
  value === undefined ? RELAY_NODE_FLAGS : value.split(' ').filter(Boolean);
const sides = {
  A: { root: resolve(env.A || '.'), env: assignments(env.A_ENV), args: flagsOf(env.A_ARGS) },
  B: { root: resolve(env.B || '.'), env: assignments(env.B_ENV), args: flagsOf(env.B_ARGS) },
};

async function measure(side, upstreamUrl) {
  const spool = mkdtempSync(join(tmpdir(), 'relay-ab-'));
  const relay = await startServer(
    [...side.args, join(side.root, 'services/relay/dist/main.js')],
    { ...relayBenchEnv(upstreamUrl, spool), ...side.env },
    { cpus: env.RELAY_CPUS },
  );
  try {
    await postEnvelopes(relay.url, { connections: CONNECTIONS, duration: 2 });
    const cpuBefore = cpuMs(relay.child.pid);
    const result = await postEnvelopes(relay.url, { connections: CONNECTIONS, duration: DURATION });
    const cpu = (cpuMs(relay.child.pid) - cpuBefore) * 1000;
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${side.root}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    return { rps: result.requests.average, cpuPerAnswer: cpu / result['2xx'] };
  } finally {
    await stopServer(relay.child);
    rmSync(spool, { recursive: true, force: true });
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const upstream = await startServer([join(here, 'upstream-server.mjs')], { DELAY_MS: '0' });
const rounds = [];
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
    const measured = {};
    for (const name of order) measured[name] = await measure(sides[name], upstream.url);
    rounds.push({ order: order.join(''), load: loadavg()[0], ...measured });
    const { A, B } = measured;
    console.log(
      `[ab ${round + 1}/${ROUNDS}] ${order.join('')}: req/s A ${A.rps.toFixed(0)} B ${B.rps.toFixed(0)}` +
        ` (B÷A ${(B.rps / A.rps).toFixed(3)}), CPU µs/answer A ${A.cpuPerAnswer.toFixed(0)} B ${B.cpuPerAnswer.toFixed(0)}`,
    );
  }
} finally {
  await stopServer(upstream.child);
}

const rpsRatio = median(rounds.map((r) => r.B.rps / r.A.rps));
const cpuRatio = median(rounds.map((r) => r.B.cpuPerAnswer / r.A.cpuPerAnswer));
const lines = [
  `# Relay A/B: ${NAME}`,
  '',
  `A: \`${commitOf(sides.A.root)}\` ${env.A_ENV ?? ''}  `,
  `B: \`${commitOf(sides.B.root)}\` ${env.B_ENV ?? ''}  `,
  `${ROUNDS} rounds, ${DURATION} s each after a 2 s warm-up, ${CONNECTIONS} connections, order alternating` +
    (env.RELAY_CPUS ? `, relays pinned to CPU ${env.RELAY_CPUS}.` : '.'),
  '',
  '| round | order | load avg | A req/s | B req/s | B ÷ A | A CPU µs/answer | B CPU µs/answer | B ÷ A |',
  '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rounds.map(
    (r, i) =>
      `| ${i + 1} | ${r.order} | ${r.load.toFixed(1)} | ${r.A.rps.toFixed(0)} | ${r.B.rps.toFixed(0)} | ${(r.B.rps / r.A.rps).toFixed(3)} | ${r.A.cpuPerAnswer.toFixed(0)} | ${r.B.cpuPerAnswer.toFixed(0)} | ${(r.B.cpuPerAnswer / r.A.cpuPerAnswer).toFixed(3)} |`,
  ),
  '',
  `**Median of the pairs: req/s B ÷ A ${rpsRatio.toFixed(3)}, CPU per answer B ÷ A ${cpuRatio.toFixed(3)}.**`,
  '',
];
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', `${NAME}.md`), lines.join('\n'));
console.log(lines.slice(-2).join('\n'));
console.log(`written to bench/relay/results/${NAME}.md`);
