// Runs an A/B: the scenario's session measures each side once per round, in alternating order,
// and the rounds are summarised per metric. A progress line per round goes to `say`.
import { roundOrder, summariseAb } from './ab-summary.mjs';
import { roundLine } from './report.mjs';

/**
 * `scenario`: `{ name, metrics, open(sides, settings) → { measure(label), close() } }`;
 * `settings`: `{ rounds, threshold, … }` (the rest is the scenario's).
 */
export async function runAb({ scenario, sides, settings, say = console.log }) {
  const session = await scenario.open(sides, settings);
  const rounds = [];
  try {
    for (let round = 0; round < settings.rounds; round++) {
      const order = roundOrder(round);
      const measured = {};
      for (const label of order) measured[label] = await session.measure(label);
      rounds.push({ order: order.join(''), ...measured });
      say(roundLine(scenario, round, settings.rounds, rounds.at(-1)));
    }
  } finally {
    await session.close();
  }
  return { rounds, summaries: summariseAb(rounds, scenario.metrics, settings) };
}
