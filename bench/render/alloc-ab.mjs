#!/usr/bin/env node
// What each page allocates on two builds: the render A/B's services (scenario.mjs) with their
// inspectors open, one side loaded at a time while V8's sampling heap profiler records every
// allocation (collected ones too), then bytes per page by group, owner and function
// (bench/kit/allocation-summary.mjs). Allocation reads the same on a busy machine, so this shows
// the garbage a change adds or removes where CPU A/Bs cannot resolve it; it says nothing of time.
//
//   A=<built checkout> B=. node bench/render/alloc-ab.mjs
//
// Env: A, B (roots; default this checkout), DURATION (5 s of load per side), CONNECTIONS (50),
//      INTERVAL_BYTES (4096, the mean sampling interval), TOP (15 rows per view),
//      NAME (alloc-ab-<UTC minute>). Output: bench/.out/render/<NAME>/alloc-ab.md.
import { join } from 'node:path';
import { allocationDiffMarkdown, summariseAllocations } from '../kit/allocation-summary.mjs';
import {
  connectInspector,
  inspectFlag,
  startAllocationSampling,
  stopAllocationSampling,
} from '../kit/inspector.mjs';
import { load } from '../kit/load.mjs';
import { runName, writeOutputs, OUT_ROOT } from '../kit/out.mjs';
import { freePort } from '../kit/ports.mjs';
import { RENDER_NOT_OWNERS } from './profile-views.mjs';
import * as scenario from './scenario.mjs';

const env = process.env;
const DURATION = Number(env.DURATION || 5);
const CONNECTIONS = Number(env.CONNECTIONS || 50);
const INTERVAL_BYTES = Number(env.INTERVAL_BYTES || 4096);
const TOP = Number(env.TOP || 15);
const NAME = env.NAME || runName('alloc-ab');
const SERVICES = ['render', 'data'];

/** A side whose two services open their inspectors on `ports`. */
async function inspectedSide(label) {
  const side = scenario.sideFromEnv(env, label, '.');
  const ports = { render: await freePort(), data: await freePort() };
  return {
    side: {
      ...side,
      renderFlags: [...side.renderFlags, inspectFlag(ports.render)],
      dataFlags: [...side.dataFlags, inspectFlag(ports.data)],
    },
    ports,
  };
}

const inspected = { A: await inspectedSide('A'), B: await inspectedSide('B') };
const session = await scenario.open(
  { A: inspected.A.side, B: inspected.B.side },
  { duration: DURATION, connections: CONNECTIONS },
);
const sampled = {};
try {
  for (const label of ['A', 'B']) {
    const inspectors = await Promise.all(
      SERVICES.map((service) => connectInspector(inspected[label].ports[service])),
    );
    // Both services sample over the same load.
    for (const inspector of inspectors)
      await startAllocationSampling(inspector, { intervalBytes: INTERVAL_BYTES });
    const outcome = await load({
      url: session.url(label),
      connections: CONNECTIONS,
      duration: DURATION,
    });
    const profiles = await Promise.all(inspectors.map(stopAllocationSampling));
    for (const inspector of inspectors) inspector.close();
    sampled[label] = Object.fromEntries(
      SERVICES.map((service, index) => [
        service,
        {
          summary: summariseAllocations(profiles[index], { notOwners: RENDER_NOT_OWNERS }),
          requests: outcome.completed,
        },
      ]),
    );
    console.log(`[alloc-ab] ${label}: ${outcome.completed} pages sampled`);
  }
} finally {
  await session.close();
}

const report = [
  `# Allocation A/B: ${NAME}`,
  '',
  `A: \`${inspected.A.side.root}\`, B: \`${inspected.B.side.root}\`; ${DURATION} s of load each, ` +
    `${CONNECTIONS} connections, sampling interval ${INTERVAL_BYTES} bytes.`,
  '',
  ...SERVICES.map((service) =>
    allocationDiffMarkdown(`${service} service`, sampled.A[service], sampled.B[service], {
      top: TOP,
    }),
  ),
].join('\n');
writeOutputs(join('render', NAME), { 'alloc-ab.md': report });
console.log(report);
console.log(`[alloc-ab] written to ${join(OUT_ROOT, 'render', NAME)}/alloc-ab.md`);
