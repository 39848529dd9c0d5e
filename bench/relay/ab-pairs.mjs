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
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import {
  abSettings,
  measureLoad,
  roundLine,
  sidesFromEnv,
  startSideRelay,
  writeAbReport,
} from './lib/ab-sides.mjs';
import { postEnvelopes, startServer, stopServer } from './lib/processes.mjs';

const env = process.env;
const here = fileURLToPath(new URL('./', import.meta.url));
const {
  rounds: ROUNDS,
  duration: DURATION,
  connections: CONNECTIONS,
  name: NAME,
} = abSettings(env, { rounds: 8, connections: 64, prefix: 'ab' });
const sides = sidesFromEnv(env);

async function measure(side, upstreamUrl) {
  const relay = await startSideRelay(side, upstreamUrl, { cpus: env.RELAY_CPUS });
  try {
    await postEnvelopes(relay.url, { connections: CONNECTIONS, duration: 2 });
    const { rps, cpuPerAnswer } = await measureLoad(relay, {
      connections: CONNECTIONS,
      duration: DURATION,
    });
    return { rps, cpuPerAnswer };
  } finally {
    await relay.stop();
  }
}

const upstream = await startServer([join(here, 'upstream-server.mjs')], { DELAY_MS: '0' });
const rounds = [];
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    const order = round % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
    const measured = {};
    for (const name of order) measured[name] = await measure(sides[name], upstream.url);
    rounds.push({ order: order.join(''), load: loadavg()[0], ...measured });
    console.log(roundLine(`[ab ${round + 1}/${ROUNDS}] ${order.join('')}:`, measured));
  }
} finally {
  await stopServer(upstream.child);
}

writeAbReport({
  dir: here,
  name: NAME,
  title: 'Relay A/B',
  sides,
  env,
  setup:
    `${ROUNDS} rounds, ${DURATION} s each after a 2 s warm-up, ${CONNECTIONS} connections, order alternating` +
    (env.RELAY_CPUS ? `, relays pinned to CPU ${env.RELAY_CPUS}.` : '.'),
  rounds,
});
