// How an A/B's rounds are run: which rounds share a session (one set of processes per side) and
// whether the scenario can take the mode asked for. Pure.

/**
 * The rounds of each session, by index: every `restartEvery` rounds start fresh processes for
 * both sides (a process's own luck, its placement and JIT, then averages out over many sessions);
 * unset, one session runs them all.
 */
export function sessionsOf(rounds, restartEvery = rounds) {
  const sessions = [];
  for (let first = 0; first < rounds; first += restartEvery)
    sessions.push(
      Array.from({ length: Math.min(restartEvery, rounds - first) }, (_, i) => first + i),
    );
  return sessions;
}

/** Throws when `settings` ask for something `scenario` cannot do (before anything is started). */
export function assertScenarioCanRun(scenario, settings) {
  if (settings.together && !scenario.measuresTogether)
    throw new Error(
      `the ${scenario.name} scenario cannot load both sides at the same time (it has no measureTogether): measure it one side at a time`,
    );
}
