#!/usr/bin/env node
// The shared store's hit path, A/B (store-scenario.mjs on bench/kit): what a change to the store's
// scripts costs a front-cache miss. Each round reads through A's store then B's, or B's then A's
// on odd rounds; reads/s, B ÷ A per round, their median, spread and verdict. Raw output:
// bench/.out/<NAME>/. Needs Docker (Redis runs in a container, as the cache bench starts it).
//
//   A=<built checkout> B=. node bench/cache/store-ab.mjs
//
// Env: A, B (checkouts with services/render/dist built; default this one), ROUNDS (10),
// DURATION (3 s per measurement), CONNECTIONS (32 reads in flight), NAME (default
// cache-store-ab-<UTC time>). A built checkout of another commit: bench/guard/baseline.mjs's
// cache (`npm run bench:guard` builds its baseline there), or any checkout after `npm run build`.
import { abFromEnv } from '../kit/ab-cli.mjs';
import * as scenario from './store-scenario.mjs';

await abFromEnv(scenario, process.env, { rounds: 10, duration: 3, connections: 32 });
