#!/usr/bin/env node
// Several built checkouts in one session (scenario.mjs's pairs), loaded one at a time in an order
// that rotates every round (bench/kit/rotation.mjs); each side's pages/s and CPU per page as a
// ratio to the reference side in the same round, then the median over the rounds. For walking a
// regression through the commits between two builds: build a few of them (`builtBaseline` in
// bench/guard/baseline.mjs) and see at which one the ratio steps. Confirm a step with
// ab-pairs.mjs between the two builds on either side of it.
//
//   ROOTS=base:<built checkout>,mid:<built checkout>,now:. node bench/render/rotation.mjs
//
// Env: ROOTS (label:path, comma-separated; the first is the reference unless REFERENCE names
//      another), ROUNDS (8), DURATION (4 s after a 1 s warm-up), RESTART_EVERY (2: fresh
//      processes for every side, started in a rotating order too),
//      CONNECTIONS (50), NAME (bench/.out/render/<NAME>/rotation.md; rotation-<UTC minute>).
// Keep to about five sides: every side's two services stay up for the session, and with a dozen
// pairs resident on 2 cores the readings spread wider (bench/render/RESULTS.md, "2026-11-28
// (later)").
import { runName, writeOutputs } from '../kit/out.mjs';
import { ratiosToReference, rotationMarkdown } from '../kit/rotation.mjs';
import { runRotation } from '../kit/rotation-run.mjs';
import { positiveInteger, positiveNumber } from '../kit/settings.mjs';
import * as scenario from './scenario.mjs';

const env = process.env;
const NAME = env.NAME || runName('rotation');

function sidesFromRoots(roots) {
  const entries = (roots ?? '')
    .split(',')
    .filter(Boolean)
    .map((entry) => {
      const at = entry.indexOf(':');
      if (at <= 0) throw new Error(`ROOTS entry "${entry}" is not label:path`);
      return [entry.slice(0, at), scenario.plainSide(entry.slice(at + 1))];
    });
  if (entries.length < 2) throw new Error('ROOTS needs at least two label:path entries');
  const repeated = entries.find(([label], i) => entries.findIndex(([l]) => l === label) !== i);
  if (repeated) throw new Error(`ROOTS names the side "${repeated[0]}" twice`);
  return Object.fromEntries(entries);
}

let sides, ROUNDS, DURATION, RESTART_EVERY, CONNECTIONS;
try {
  sides = sidesFromRoots(env.ROOTS);
  ROUNDS = positiveInteger('ROUNDS', env.ROUNDS, 8);
  DURATION = positiveNumber('DURATION', env.DURATION, 4);
  RESTART_EVERY = positiveInteger('RESTART_EVERY', env.RESTART_EVERY, 2);
  CONNECTIONS = positiveInteger('CONNECTIONS', env.CONNECTIONS, 50);
} catch (error) {
  console.error(`[rotation] ${error.message}`);
  process.exit(64);
}
const labels = Object.keys(sides);
const reference = env.REFERENCE || labels[0];
if (!labels.includes(reference)) {
  console.error(`[rotation] REFERENCE=${reference} is not one of ${labels.join(', ')}`);
  process.exit(64);
}

const rounds = await runRotation({
  labels,
  rounds: ROUNDS,
  restartEvery: RESTART_EVERY,
  open: (startOrder) =>
    scenario.open(sides, { duration: DURATION, connections: CONNECTIONS, warmup: 2 }, startOrder),
  onRound(round, measured) {
    const line = labels
      .map((label) => {
        const ratio = (key) => (measured[label][key] / measured[reference][key]).toFixed(3);
        return `${label} ${ratio('pagesPerSecond')}/${ratio('renderCpuMs')}`;
      })
      .join('  ');
    console.log(
      `[rotation] round ${round + 1}/${ROUNDS} (pages/s / render CPU ÷ ${reference}): ${line}`,
    );
  },
});

const summary = ratiosToReference(
  rounds,
  reference,
  scenario.metrics.map((m) => m.key),
);
const table = rotationMarkdown(summary, labels, scenario.metrics, reference);
const header = `# Rotation: ${NAME}\n\n${labels.map((l) => `- ${l}: \`${sides[l].root}\``).join('\n')}\n\n${ROUNDS} rounds of ${DURATION} s, fresh processes every ${RESTART_EVERY} rounds, ${CONNECTIONS} connections; medians (range) of the per-round ratios.\n`;
const dir = writeOutputs(`render/${NAME}`, {
  'rotation.md': `${header}\n${table}\n`,
  'rotation.json': `${JSON.stringify({ sides, rounds, summary }, null, 2)}\n`,
});
console.log(`\n${table}\n\n[rotation] written to ${dir}/rotation.md`);
