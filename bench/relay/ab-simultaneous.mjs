#!/usr/bin/env node
// A/B of two built relays under load at the same time: each round starts both, each in front of
// the one counting upstream, and drives each with its own CONNECTIONS connections posting the SDK
// error envelope through the tunnel for the same DURATION seconds (after a 2 s warm-up). A swing
// in the machine's speed between runs, which can bias ab-pairs.mjs (one side after the other),
// hits both sides alike here; instead the two compete for the same CPUs, so a round's ratio is
// how they share the machine, not either's rate alone. A cross-check of ab-pairs.mjs with a
// different source of error (bench/relay/RESULTS.md shows both against the same pair).
//
//   A=<built checkout> B=<built checkout> node bench/relay/ab-simultaneous.mjs
//
// Env: A, B, A_ENV, B_ENV, A_ARGS, B_ARGS as for ab-pairs.mjs; ROUNDS (6), DURATION (10 s),
// CONNECTIONS (32 per relay), NAME (bench/.out/relay/<NAME>/report.md; default ab-sim-<UTC time>).
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
} = abSettings(env, { rounds: 6, connections: 32, prefix: 'ab-sim' });
const sides = sidesFromEnv(env);

/** Both relays under load together; req/s and CPU per answer of each. */
async function measureRound(upstreamUrl, order) {
  const relays = {};
  for (const name of order) relays[name] = await startSideRelay(sides[name], upstreamUrl);
  try {
    await Promise.all(
      order.map((name) =>
        postEnvelopes(relays[name].url, { connections: CONNECTIONS, duration: 2 }),
      ),
    );
    const measured = await Promise.all(
      order.map((name) =>
        measureLoad(relays[name], { connections: CONNECTIONS, duration: DURATION }),
      ),
    );
    return Object.fromEntries(
      order.map((name, index) => [
        name,
        { rps: measured[index].rps, cpuPerAnswer: measured[index].cpuPerAnswer },
      ]),
    );
  } finally {
    for (const relay of Object.values(relays)) await relay.stop();
  }
}

const upstream = await startServer([join(here, 'upstream-server.mjs')], { DELAY_MS: '0' });
const rounds = [];
try {
  for (let round = 0; round < ROUNDS; round += 1) {
    // Which relay starts first alternates, like the order in ab-pairs.
    const measured = await measureRound(upstream.url, round % 2 === 0 ? ['A', 'B'] : ['B', 'A']);
    rounds.push({ load: loadavg()[0], ...measured });
    console.log(roundLine(`[ab-sim ${round + 1}/${ROUNDS}]`, measured));
  }
} finally {
  await stopServer(upstream.child);
}

writeAbReport({
  name: NAME,
  title: 'Relay A/B, both at once',
  sides,
  env,
  setup: `${ROUNDS} rounds, both relays loaded together for ${DURATION} s after a 2 s warm-up, ${CONNECTIONS} connections each.`,
  rounds,
});
