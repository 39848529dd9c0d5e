#!/usr/bin/env node
// Where two builds differ, not only by how much: the render A/B (scenario.mjs) with both sides'
// render and data services under `node --cpu-prof`, measured in alternating rounds in the same
// minutes, then each service's main-thread time per page compared group by group, owner by owner
// and function by function (bench/kit/profile-diff.mjs).
//
//   A=<built checkout> B=. node bench/render/profile-ab.mjs
//
// Env: A, B (roots; default this checkout), ROUNDS (4), DURATION (6 s per measurement),
//      CONNECTIONS (50), INTERVAL_US (500, the sampling interval), TOP (15 rows per view),
//      NAME (profile-ab-<UTC minute>). Raw output: bench/.out/render/<NAME>/.
// A measurement is a 1 s warm-up and DURATION seconds of load; its profile window spans both,
// so the pages it counts are the measured rate times DURATION + 1. The profiler costs both sides
// alike: read the pages/s here as the profiled rate, and ab-pairs.mjs for the unprofiled one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { roundOrder } from '../kit/ab-summary.mjs';
import { runName, writeOutputs, OUT_ROOT } from '../kit/out.mjs';
import { profileDiffMarkdown } from '../kit/profile-diff.mjs';
import { cpuProfileFlags, readNewestProfile } from '../kit/profile.mjs';
import { summariseProfile } from '../kit/profile-summary.mjs';
import { median } from '../kit/stats.mjs';
import { RENDER_INCLUSIVE, RENDER_NOT_OWNERS } from './profile-views.mjs';
import * as scenario from './scenario.mjs';

const env = process.env;
const ROUNDS = Number(env.ROUNDS || 4);
const DURATION = Number(env.DURATION || 6);
const CONNECTIONS = Number(env.CONNECTIONS || 50);
const INTERVAL_US = Number(env.INTERVAL_US || 500);
const TOP = Number(env.TOP || 15);
const NAME = env.NAME || runName('profile-ab');
const OUT = join(OUT_ROOT, 'render', NAME);
const SERVICES = ['render', 'data'];

const nowUs = () => Number(process.hrtime.bigint() / 1000n); // V8's sample clock (monotonic)
const commitOf = (root) => {
  try {
    return readFileSync(join(root, '.strata-bench-ready'), 'utf8').trim().slice(0, 7);
  } catch {
    return root;
  }
};

/** A side of the scenario whose two services write a CPU profile into OUT/<label>-<service>/. */
function profiledSide(label) {
  const side = scenario.sideFromEnv(env, label, '.');
  const flags = (service) =>
    cpuProfileFlags(join(OUT, `${label}-${service}`), { intervalUs: INTERVAL_US });
  return {
    ...side,
    renderFlags: [...side.renderFlags, ...flags('render')],
    dataFlags: [...side.dataFlags, ...flags('data')],
  };
}

const sides = { A: profiledSide('A'), B: profiledSide('B') };
const turns = { A: [], B: [] };
console.log(
  `[profile-ab] A ${commitOf(sides.A.root)}, B ${commitOf(sides.B.root)}: ${ROUNDS} rounds of ${DURATION} s`,
);
const session = await scenario.open(sides, { duration: DURATION, connections: CONNECTIONS });
try {
  for (let round = 0; round < ROUNDS; round++)
    for (const label of roundOrder(round)) {
      const fromUs = nowUs();
      const measured = await session.measure(label);
      turns[label].push({ fromUs, toUs: nowUs(), ...measured });
      console.log(
        `[profile-ab] round ${round + 1} ${label}: ${measured.pagesPerSecond.toFixed(0)} pages/s, ` +
          `render ${measured.renderCpuMs.toFixed(3)} ms/page, data ${measured.dataCpuMs.toFixed(3)} ms/page`,
      );
    }
} finally {
  // SIGTERM: each service writes its profile as it exits.
  await session.close();
}

const profiled = (label, service) => {
  const windows = turns[label].map((turn) => [turn.fromUs, turn.toUs]);
  const requests = turns[label].reduce(
    (sum, turn) => sum + turn.pagesPerSecond * (DURATION + 1),
    0,
  );
  const profile = readNewestProfile(join(OUT, `${label}-${service}`));
  const summary = summariseProfile(profile, {
    windows,
    top: 200,
    notOwners: RENDER_NOT_OWNERS,
    inclusive: RENDER_INCLUSIVE,
  });
  return { summary, requests: Math.round(requests) };
};

const medianOf = (label, key) => median(turns[label].map((turn) => turn[key])).toFixed(3);
const report = [
  `# Profiled A/B: ${NAME}`,
  '',
  `A: \`${commitOf(sides.A.root)}\`, B: \`${commitOf(sides.B.root)}\`; ${ROUNDS} rounds in alternating order, ` +
    `${DURATION} s each after 1 s of warm-up, ${CONNECTIONS} connections, --cpu-prof-interval ${INTERVAL_US} µs.`,
  '',
  `Medians under the profiler: pages/s A ${medianOf('A', 'pagesPerSecond')} B ${medianOf('B', 'pagesPerSecond')}; ` +
    `render CPU ms/page A ${medianOf('A', 'renderCpuMs')} B ${medianOf('B', 'renderCpuMs')}; ` +
    `data CPU ms/page A ${medianOf('A', 'dataCpuMs')} B ${medianOf('B', 'dataCpuMs')}.`,
  '',
  ...SERVICES.map((service) =>
    profileDiffMarkdown(`${service} service`, profiled('A', service), profiled('B', service), {
      top: TOP,
    }),
  ),
].join('\n');
writeOutputs(join('render', NAME), {
  'profile-ab.md': report,
  'turns.json': JSON.stringify(turns, null, 2),
});
console.log(report);
console.log(`[profile-ab] written to ${OUT}/profile-ab.md`);
