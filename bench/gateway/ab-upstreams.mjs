#!/usr/bin/env node
// The gateway's way to the render replicas, A/B on one running compose stack (scenario.mjs on
// bench/kit): A and B are two extra gateways in front of the same replicas, each with one side's
// infra/gateway files; each round loads A then B, or B then A on odd rounds; req/s, B ÷ A per
// round, their median, spread and verdict. Raw output: bench/.out/<NAME>/.
//
//   docker-compose -p strata-bench up -d --build
//   PROJECT=strata-bench A=<git ref or checkout> B=. node bench/gateway/ab-upstreams.mjs
//
// Env: PROJECT (the stack's compose project), A, B (a checkout, or a git ref whose files are
// read with git show; default this checkout), GATEWAY_PATH (/items), ROUNDS (8), DURATION (8 s),
// CONNECTIONS (32), NAME (default gateway-ab-<UTC time>). A side with infra/gateway/start.sh runs
// it; an older one (4ba1101 or earlier) has its fixed upstream pointed at the two replicas.
import { abFromEnv } from '../kit/ab-cli.mjs';
import * as scenario from './scenario.mjs';

await abFromEnv(scenario, process.env, { rounds: 8, duration: 8, connections: 32 });
