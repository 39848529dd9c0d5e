#!/usr/bin/env node
// A/B of two built relays under the honest benchmark load (scenario.mjs). Each round runs A then
// B, or B then A on odd rounds (with TOGETHER=1 both at once, each with its own connections),
// each on a fresh relay and spool in front of one counting upstream; accepted answers/s and the
// relay's CPU per answer, B ÷ A per round, their median, spread and verdict. Raw output:
// bench/.out/<NAME>/.
//
//   A=<built checkout> B=<built checkout> node bench/relay/ab-pairs.mjs
//
// Env: A, B (roots with services/relay/dist built; default this checkout), A_ENV, B_ENV
// (`VAR=value …` over the bench settings for that side), A_ARGS, B_ARGS (that side's node flags;
// default the deployed ones, RELAY_NODE_FLAGS; empty for none), A_NODE, B_NODE (the node binary
// that side's relay runs on; default the one running this), ROUNDS (8), DURATION (10 s,
// after a 2 s warm-up), CONNECTIONS (64), NAME (default relay-ab-<UTC time>), RELAY_CPUS (pin
// the relays to these CPUs, e.g. 0; run the script itself under `taskset -c 1`), RESTART_EVERY
// (a fresh upstream every n rounds; the relays are fresh every measurement anyway), TOGETHER
// (both relays loaded in the same seconds: a swing in the machine's speed hits both alike).
import * as scenario from './scenario.mjs';
import { abFromEnv } from '../kit/ab-cli.mjs';

await abFromEnv(scenario, process.env, { rounds: 8, duration: 10, connections: 64 });
