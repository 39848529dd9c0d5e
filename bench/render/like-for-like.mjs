#!/usr/bin/env node
// The anchor goal read like for like: Strata's render service beside the minimal Fastify + React
// renderer, and beside that renderer with what Strata's /bench/items page carries switched on one
// at a time (the items as hydration data in the page; the items read from the data service over
// gRPC, with @grpc/grpc-js or with Strata's own client). Each side's renderer CPU per page as a ratio to the minimal renderer's in the same round,
// loaded one at a time in a rotating order (bench/kit/rotation.mjs), so the goal "render CPU ÷
// the minimal renderer" can be split into what the page carries and what the runtime costs.
//
//   node bench/render/like-for-like.mjs          # after `npm run build`
//
// Env: SIDES (all five: minimal, minimal+hydration, minimal+hydration+grpc-js,
//      minimal+hydration+strata-client, strata; comma-separated, the first is the reference), ROUNDS (8), DURATION (4 s after a 1 s warm-up), RESTART_EVERY (2),
//      CONNECTIONS (50), NAME (bench/.out/render/<NAME>/like-for-like.md; like-for-like-<UTC>).
import { measureLoad, warmUpAll } from '../kit/measure-load.mjs';
import { runName, writeOutputs } from '../kit/out.mjs';
import { ratiosToReference, rotationMarkdown } from '../kit/rotation.mjs';
import { runRotation } from '../kit/rotation-run.mjs';
import { positiveInteger, positiveNumber } from '../kit/settings.mjs';
import { median } from '../kit/stats.mjs';
import { SIDES, sidesNamed, startSide } from './lib/like-for-like-sides.mjs';

const env = process.env;
const NAME = env.NAME || runName('like-for-like');
const METRICS = [
  { key: 'pagesPerSecond', label: 'pages/s' },
  { key: 'renderCpuMs', label: 'CPU ms/page (renderer)' },
  { key: 'dataCpuMs', label: 'CPU ms/page (data service)' },
];
// The renderers are compared; every side's data service does the same work and is only reported.
const RATIO_METRICS = METRICS.filter((metric) => metric.key !== 'dataCpuMs');

let labels, ROUNDS, DURATION, RESTART_EVERY, CONNECTIONS;
try {
  labels = sidesNamed(env.SIDES || Object.keys(SIDES).join(','));
  ROUNDS = positiveInteger('ROUNDS', env.ROUNDS, 8);
  DURATION = positiveNumber('DURATION', env.DURATION, 4);
  RESTART_EVERY = positiveInteger('RESTART_EVERY', env.RESTART_EVERY, 2);
  CONNECTIONS = positiveInteger('CONNECTIONS', env.CONNECTIONS, 50);
} catch (error) {
  console.error(`[like-for-like] ${error.message}`);
  process.exit(64);
}
const reference = labels[0];
const say = (message) => console.log(`[like-for-like] ${message}`);

/** Every side started, in `order`; `measure(label)` loads one, `close()` stops them all. */
async function openSession(order) {
  const running = {};
  const close = () => Promise.all(Object.values(running).map((side) => side.stop()));
  try {
    for (const label of order) running[label] = await startSide(label);
    for (const side of Object.values(running))
      await warmUpAll([side], { connections: CONNECTIONS }, 2);
  } catch (error) {
    await close();
    throw error;
  }
  return { measure: (label) => measure(running[label]), close };
}

async function measure(side) {
  await warmUpAll([side], { connections: CONNECTIONS }, 1);
  const { only } = await measureLoad(
    { only: side },
    { connections: CONNECTIONS, duration: DURATION },
  );
  return {
    pagesPerSecond: only.perSecond,
    renderCpuMs: only.cpuMs.render,
    dataCpuMs: only.cpuMs.data,
  };
}

const rounds = await runRotation({
  labels,
  rounds: ROUNDS,
  restartEvery: RESTART_EVERY,
  open: openSession,
  onRound(round, measured) {
    const line = labels
      .map(
        (label) =>
          `${label} ${(measured[label].renderCpuMs / measured[reference].renderCpuMs).toFixed(2)}`,
      )
      .join('  ');
    say(`round ${round + 1}/${ROUNDS}, renderer CPU ÷ ${reference}: ${line}`);
  },
});

const summary = ratiosToReference(
  rounds,
  reference,
  RATIO_METRICS.map((m) => m.key),
);
const table = rotationMarkdown(summary, labels, RATIO_METRICS, reference);
// Strata against each other side: the ones carrying the same page and read are its like for like.
const strataAgainst = labels.includes('strata')
  ? labels
      .filter((label) => label !== 'strata' && label !== reference)
      .map((label) => {
        const {
          median: m,
          low,
          high,
        } = ratiosToReference(rounds, label, ['renderCpuMs']).strata.renderCpuMs;
        return `- Strata's renderer CPU per page ÷ ${label}'s: **${m.toFixed(3)}** (${low.toFixed(2)}–${high.toFixed(2)})`;
      })
  : [];
const absolute = labels
  .map((label) => {
    const cell = (key) => median(rounds.map((round) => round[label][key]));
    return `| ${label} | ${cell('pagesPerSecond').toFixed(0)} | ${cell('renderCpuMs').toFixed(3)} | ${cell('dataCpuMs').toFixed(3)} |`;
  })
  .join('\n');
const report = [
  `# Like for like: ${NAME}`,
  '',
  `${ROUNDS} rounds of ${DURATION} s, one side at a time in a rotating order, fresh processes every ${RESTART_EVERY} rounds, ${CONNECTIONS} connections, node ${process.version}; medians (range) of the per-round ratios.`,
  '',
  table,
  '',
  ...(strataAgainst.length ? [...strataAgainst, ''] : []),
  `| side | ${METRICS.map((m) => m.label).join(' | ')} |`,
  `|---|${METRICS.map(() => '---:').join('|')}|`,
  absolute,
  '',
].join('\n');
const dir = writeOutputs(`render/${NAME}`, {
  'like-for-like.md': report,
  'like-for-like.json': `${JSON.stringify({ labels, rounds, summary }, null, 2)}\n`,
});
console.log(`\n${report}\n[like-for-like] written to ${dir}/like-for-like.md`);
