// Runs an A/B: in each round the scenario's session measures each side once, in alternating
// order, or both at the same time (TOGETHER); every RESTART_EVERY rounds a fresh session starts
// fresh processes, A's first in one session and B's first in the next, so neither side always
// gets the first start. The rounds are summarised per metric. A progress line per round goes to
// `say`.
import { assertScenarioCanRun, sessionsOf } from './ab-plan.mjs';
import { roundOrder, summariseAb } from './ab-summary.mjs';
import { roundLine } from './report.mjs';

/** One round: each side in `order`, or both loaded together (order then only says who starts). */
async function measureRound(session, round, { together }) {
  const order = roundOrder(round);
  if (together) {
    const { A, B } = await session.measureTogether(order);
    return { order: order.join('+'), A, B };
  }
  const measured = {};
  for (const label of order) measured[label] = await session.measure(label);
  return { order: order.join(''), ...measured };
}

const roundsLabel = ([first, ...rest]) =>
  rest.length ? `rounds ${first + 1}–${rest.at(-1) + 1}` : `round ${first + 1}`;

/**
 * `scenario`: `{ name, metrics, open(sides, settings, startOrder) → { measure(label), close() } }`
 * (`startOrder`: which side's processes to start first, ['A', 'B'] or ['B', 'A']), and
 * with `measuresTogether` its session's `measureTogether(order)` → `{ A, B }`;
 * `settings`: `{ rounds, threshold, restartEvery, together, … }` (the rest is the scenario's).
 */
export async function runAb({ scenario, sides, settings, say = console.log }) {
  assertScenarioCanRun(scenario, settings);
  const sessions = sessionsOf(settings.rounds, settings.restartEvery);
  const rounds = [];
  for (const [index, sessionRounds] of sessions.entries()) {
    if (sessions.length > 1)
      say(`[${scenario.name}] fresh processes: ${roundsLabel(sessionRounds)}`);
    const session = await scenario.open(sides, settings, roundOrder(index));
    try {
      for (const round of sessionRounds) {
        rounds.push(await measureRound(session, round, settings));
        say(roundLine(scenario, round, settings.rounds, rounds.at(-1)));
      }
    } finally {
      await session.close();
    }
  }
  return { rounds, summaries: summariseAb(rounds, scenario.metrics, settings) };
}
