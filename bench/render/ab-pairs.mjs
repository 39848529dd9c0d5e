#!/usr/bin/env node
// A/B of two render + data pairs at full speed (scenario.mjs): `/bench/items` loaded on one side,
// then the other, alternating the order every round; pages/s and each service's CPU per page,
// B ÷ A per round, their median, spread and verdict. Raw output: bench/.out/<NAME>/.
//
//   A=<built checkout> B=<built checkout> node bench/render/ab-pairs.mjs
//   A=. B=. B_DATA_ARGS=--max-semi-space-size=64 node bench/render/ab-pairs.mjs   # a flag alone
//   A=. B=. A_NODE=<node 24> B_NODE=<node 26> node bench/render/ab-pairs.mjs       # a runtime
//
// Env: A, B (roots; default this checkout), A_RENDER_ARGS, A_DATA_ARGS, B_RENDER_ARGS,
//      B_DATA_ARGS (node flags after the deployed ones: RENDER_SERVICE_NODE_FLAGS and
//      SERVICE_NODE_FLAGS), A_BASE_FLAGS, B_BASE_FLAGS (that side's flags for both services
//      instead of the deployed ones; `none` for none), A_DATA_ENV, B_DATA_ENV (`VAR=value …`
//      for that side's data service), A_NODE, B_NODE (the node binary that side's services run
//      on; default the one running this), ROUNDS (4), DURATION (6 s, after a 1 s warm-up),
//      CONNECTIONS (50), ANCHORS (optional: their autocannon), NAME (default render-ab-<UTC time>),
//      RESTART_EVERY (fresh services for both sides every n rounds), TOGETHER (1: both sides
//      loaded in the same seconds), RENDER_CPUS, DATA_CPUS (pin those services, e.g. 0 or 0-1).
// Full-speed runs on a shared 2-core machine differ by several percent between two identical
// sides: trust the verdict line, not one round; on a noisy machine, many short rounds with
// restarts and both sides together (bench/kit/README.md, "The settings of a run").
//
//   A=<built checkout> B=. ROUNDS=20 DURATION=2 RESTART_EVERY=1 TOGETHER=1 node bench/render/ab-pairs.mjs
import * as scenario from './scenario.mjs';
import { abFromEnv } from '../kit/ab-cli.mjs';

await abFromEnv(scenario, process.env, { rounds: 4, duration: 6, connections: 50 });
