// Runs an A/B: the scenario's session measures each side once per round, in alternating order,
// and the rounds are summarised per metric. A progress line per round goes to `say`.
//
// The side a scenario starts first read about 5% slower in both orders of the same A/B
// (bench/render/RESULTS.md, 2026-11-27 evening), so the rounds run in two sessions: the first
// half with A's services started first, the second with B's.
import { roundOrder, summariseAb } from './ab-summary.mjs';
import { roundLine } from './report.mjs';

const SWAPPED = { A: 'B', B: 'A' };

/** How many rounds each session runs: the first `ceil(rounds / 2)` start A first. */
export function sessionRounds(rounds) {
  const first = Math.ceil(rounds / 2);
  return [
    { startFirst: 'A', rounds: first },
    { startFirst: 'B', rounds: rounds - first },
  ].filter((session) => session.rounds > 0);
}

/** A session whose services start in the order `startFirst` says; measured by the real labels. */
async function openSession(scenario, sides, settings, startFirst) {
  if (startFirst === 'A') return scenario.open(sides, settings);
  const session = await scenario.open({ A: sides.B, B: sides.A }, settings);
  return { measure: (label) => session.measure(SWAPPED[label]), close: () => session.close() };
}

/**
 * `scenario`: `{ name, metrics, open(sides, settings) → { measure(label), close() } }` (it starts
 * `sides.A` first); `settings`: `{ rounds, threshold, … }` (the rest is the scenario's).
 */
export async function runAb({ scenario, sides, settings, say = console.log }) {
  const rounds = [];
  for (const planned of sessionRounds(settings.rounds)) {
    const session = await openSession(scenario, sides, settings, planned.startFirst);
    try {
      for (let round = 0; round < planned.rounds; round++) {
        const order = roundOrder(rounds.length);
        const measured = {};
        for (const label of order) measured[label] = await session.measure(label);
        rounds.push({ order: order.join(''), startedFirst: planned.startFirst, ...measured });
        say(roundLine(scenario, rounds.length - 1, settings.rounds, rounds.at(-1)));
      }
    } finally {
      await session.close();
    }
  }
  return { rounds, summaries: summariseAb(rounds, scenario.metrics, settings) };
}
