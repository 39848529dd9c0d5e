#!/usr/bin/env node
// The fast codecs of two versions of @strata/proto in one process (codec-scenario.mjs on
// bench/kit): each round times every operation on A then B, or B then A on odd rounds; µs per
// operation, B ÷ A per round, their median, spread and verdict. Raw output: bench/.out/<NAME>/.
//
//   npm run build && A=<git ref or built checkout> B=. node bench/data/codec-ab.mjs
//
// Env: A, B (a checkout with proto/dist built, or a git ref, built once into the drift guard's
// cache; default this checkout), ROUNDS (6), DURATION (0.4 s per operation
// and side), NAME (default codecs-ab-<UTC time>).
import { abFromEnv } from '../kit/ab-cli.mjs';
import * as scenario from './codec-scenario.mjs';

await abFromEnv(scenario, process.env, { rounds: 6, duration: 0.4 });
