#!/usr/bin/env node
// CPU profiles of one call under load: the server child during the gRPC phase, the driver during
// the gRPC phase (client side) and the driver during the in-process phase (the ceiling).
// Knobs: ENGINE=pglite METHOD=ListItems100 DURATION=5 WARMUP=2 CONCURRENCY=50
//        PROFILE_DIR=bench/.out/data/profiles (raw .cpuprofile files)
//        OUT=summary.json
//   node bench/data/profile.mjs > bench/.out/data/profile-pglite-ListItems100.md
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname, join } from 'node:path';
import { closedLoop } from './lib/driver.mjs';
import { OUT_ROOT } from '../kit/out.mjs';
import { profileMarkdown, summariseProfile } from '../kit/profile-summary.mjs';
import { startEngine } from './lib/setup.mjs';

const engine = process.env.ENGINE ?? 'pglite';
const method = process.env.METHOD ?? 'ListItems100';
const duration = Number(process.env.DURATION ?? 5) * 1000;
const warmup = Number(process.env.WARMUP ?? 2) * 1000;
const concurrency = Number(process.env.CONCURRENCY ?? 50);
// Tens of MB each: in the git-ignored bench/.out unless told otherwise.
const dir = process.env.PROFILE_DIR ?? join(OUT_ROOT, 'data/profiles');
mkdirSync(dir, { recursive: true });

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });

const setup = await startEngine(engine, { log: console.error });
const out = { engine, method, duration, concurrency, profiles: {} };
const md = [
  `### CPU profiles: ${engine} ${method}, concurrency ${concurrency}, ${duration / 1000}s each`,
  '',
];
try {
  for (const mode of ['grpc', 'inproc']) {
    const call = setup.caller(method, mode);
    await closedLoop({ call, concurrency, warmupMs: warmup, durationMs: 0 });
    await session.post('Profiler.start');
    if (mode === 'grpc') await setup.server.profileStart();
    const stats = await closedLoop({ call, concurrency, warmupMs: 0, durationMs: duration });
    const { profile } = await session.post('Profiler.stop');
    const driverPath = join(dir, `${engine}-${method}-${mode}-driver.cpuprofile`);
    writeFileSync(driverPath, JSON.stringify(profile));
    const paths = { driver: driverPath };
    if (mode === 'grpc') {
      paths.server = join(dir, `${engine}-${method}-${mode}-server.cpuprofile`);
      await setup.server.profileStop(paths.server);
    }
    console.error(
      `[profile ${engine}] ${method} ${mode}: ${Math.round(stats.callsPerSec)} calls/s p50 ${stats.p50.toFixed(2)} ms (profiler on)`,
    );
    for (const [side, path] of Object.entries(paths)) {
      const summary = summariseProfile(JSON.parse(readFileSync(path, 'utf8')));
      out.profiles[`${mode}-${side}`] = {
        path,
        calls: stats.calls,
        callsPerSec: stats.callsPerSec,
        summary,
      };
      const title =
        mode === 'inproc'
          ? 'In-process (driver + catalogue, one process)'
          : side === 'server'
            ? 'gRPC server child'
            : 'gRPC client (driver process)';
      md.push(
        profileMarkdown(
          `${title}: ${Math.round(stats.callsPerSec)} calls/s under the profiler`,
          summary,
          { requests: stats.calls },
        ),
      );
    }
  }
} finally {
  await setup.stop();
  session.disconnect();
}
const jsonPath = process.env.OUT ?? join(OUT_ROOT, 'data', `profile-${engine}-${method}.json`);
mkdirSync(dirname(jsonPath), { recursive: true });
writeFileSync(jsonPath, `${JSON.stringify(out, null, 2)}\n`);
console.error(`summary: ${jsonPath}; raw profiles in ${dir}`);
console.log(md.join('\n'));
