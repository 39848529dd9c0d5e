#!/usr/bin/env node
// Benchmark of the gRPC data service: GetItem and ListItems(100) over gRPC on loopback (server in
// a child process, one client channel) against the same catalogue calls in-process (the ceiling),
// on PGlite and PostgreSQL. See README in RESULTS.md. Knobs (env): DURATION=5 WARMUP=2 (seconds)
// CONCURRENCY=50 ROUNDS=6 ENGINES=pglite,postgres METHODS=GetItem,ListItems100 CHANNELS=1
// CLIENT=gateway|generated (the render gateway's client class, or ts-proto's)
// FLOW_WINDOW=0 (client HTTP/2 window bytes; 0 = grpc-js default) POOL_SIZE=0 (pg pool, 0 = default 10)
// PGLITE_WORKER= (server child: PGlite in a worker thread; unset = service default, true)
// CEILING_PGLITE_WORKER=false (the in-process ceiling's setting)
// SERVER_NODELAY=0 (1 = experiment: TCP_NODELAY on the server's sockets) OUT=path
//
//   npm run build   (at the repo root; the bench imports the built dist/)
//   node bench/data/run.mjs
import { execSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closedLoop } from './lib/driver.mjs';
import { markdown, summarise } from './lib/report.mjs';
import { cpuFromSnapshots, machineInfo, readKnobs, startEngine } from './lib/setup.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const knobs = readKnobs();
const log = (...args) => console.error(...args);
const ms = (v) => v.toFixed(2);

const commit = (() => {
  try {
    return execSync('git rev-parse --short HEAD', { cwd: here, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
})();

// What the bench actually imports: dist/ of these packages (rebuilt by `npm run build`).
const distBuiltAt = Object.fromEntries(
  ['@strata/data', '@strata/proto'].map((name) => {
    try {
      const file = fileURLToPath(import.meta.resolve(name));
      return [name, statSync(file).mtime.toISOString()];
    } catch {
      return [name, undefined];
    }
  }),
);

const results = {
  command: `${Object.entries(process.env)
    .filter(([k]) =>
      [
        'DURATION',
        'WARMUP',
        'CONCURRENCY',
        'ROUNDS',
        'ENGINES',
        'METHODS',
        'CHANNELS',
        'FLOW_WINDOW',
        'POOL_SIZE',
        'PGLITE_WORKER',
        'CEILING_PGLITE_WORKER',
        'SERVER_NODELAY',
        'CLIENT',
      ].includes(k),
    )
    .map(([k, v]) => `${k}=${v} `)
    .join('')}node bench/data/run.mjs`,
  startedAt: new Date().toISOString(),
  commit,
  distBuiltAt,
  knobs,
  machineBefore: machineInfo(),
  engines: {},
};
const perPhase = knobs.WARMUP + knobs.DURATION;
log(
  `data bench: ${knobs.ENGINES.join(',')} × ${knobs.METHODS.join(',')} × {grpc,inproc} × ${knobs.ROUNDS} rounds, ` +
    `concurrency ${knobs.CONCURRENCY}, ${knobs.WARMUP}s warm-up + ${knobs.DURATION}s per phase ` +
    `(≈${Math.round((knobs.ENGINES.length * knobs.METHODS.length * 2 * knobs.ROUNDS * perPhase) / 60)} min of load); ` +
    `nproc ${results.machineBefore.nproc}, load ${results.machineBefore.loadavg.join(' ')}`,
);

for (const engine of knobs.ENGINES) {
  const setup = await startEngine(engine, {
    channels: knobs.CHANNELS,
    flowWindow: knobs.FLOW_WINDOW,
    poolSize: knobs.POOL_SIZE,
    pgliteWorker: knobs.PGLITE_WORKER,
    ceilingPgliteWorker: knobs.CEILING_PGLITE_WORKER,
    serverNoDelay: knobs.SERVER_NODELAY,
    client: knobs.CLIENT,
    log,
  });
  const rounds = [];
  try {
    for (let round = 1; round <= knobs.ROUNDS; round++) {
      // Alternate which call goes first each round, and which mode goes first per call.
      const methods = round % 2 ? knobs.METHODS : [...knobs.METHODS].reverse();
      const record = {
        round,
        order: {},
        phases: {},
        loadavg: os.loadavg().map((v) => +v.toFixed(2)),
      };
      for (const [index, method] of methods.entries()) {
        const modes = (round + index) % 2 ? ['grpc', 'inproc'] : ['inproc', 'grpc'];
        record.order[method] = modes.join('>');
        record.phases[method] = {};
        for (const mode of modes) {
          const result = await closedLoop({
            call: setup.caller(method, mode),
            concurrency: knobs.CONCURRENCY,
            warmupMs: knobs.WARMUP * 1000,
            durationMs: knobs.DURATION * 1000,
            snapshot: () => setup.snapshot(),
          });
          const { snapshots, ...stats } = result;
          stats.cpu = cpuFromSnapshots(snapshots, stats.calls);
          record.phases[method][mode] = stats;
          log(
            `[${engine} r${round}/${knobs.ROUNDS}] ${method.padEnd(12)} ${mode.padEnd(6)} ` +
              `${Math.round(stats.callsPerSec).toString().padStart(6)} calls/s  p50 ${ms(stats.p50)} ms  p99 ${ms(stats.p99)} ms` +
              `  cpu server ${stats.cpu?.serverPct}% driver ${stats.cpu?.driverPct}% machine ${stats.cpu?.machineBusyPct}%` +
              (stats.errors ? `  ERRORS ${stats.errors}: ${stats.firstError}` : ''),
          );
          if (stats.calls === 0)
            throw new Error(
              `${engine} ${method} ${mode}: no call completed inside the ${knobs.DURATION}s window; raise DURATION`,
            );
          if (stats.errors)
            throw new Error(`${engine} ${method} ${mode}: ${stats.errors} failed calls`);
        }
      }
      rounds.push(record);
    }
  } finally {
    await setup.stop();
  }
  results.engines[engine] = { rounds };
}

results.finishedAt = new Date().toISOString();
results.machineAfter = machineInfo();
results.summary = summarise(results);
const out =
  process.env.OUT ??
  join(here, '../.out/data', `run-${results.startedAt.replace(/[:.]/g, '-').slice(0, 19)}.json`);
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
log(`load average after: ${results.machineAfter.loadavg.join(' ')}; raw results: ${out}`);
console.log(markdown(results));
