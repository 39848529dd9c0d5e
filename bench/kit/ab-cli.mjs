// The A/B entry points' shared body: settings and sides from the environment, the rounds, and
// the report in bench/.out/<NAME>/ (ab.md, ab.json), ending with one verdict line per metric.
import { runAb } from './ab-run.mjs';
import { abJson, abMarkdown, summaryRows, verdictLine } from './report.mjs';
import { REPO, runName, writeOutputs } from './out.mjs';
import { positiveNumber } from './settings.mjs';

/** Runs `scenario` A against B as `env` describes; `defaults`: `{ rounds, duration, connections }`. */
export async function abFromEnv(scenario, env, defaults) {
  const settings = {
    rounds: positiveNumber('ROUNDS', env.ROUNDS, defaults.rounds),
    duration: positiveNumber('DURATION', env.DURATION, defaults.duration),
    connections: positiveNumber('CONNECTIONS', env.CONNECTIONS, defaults.connections),
    cpus: env.RELAY_CPUS,
  };
  const sides = {
    A: scenario.sideFromEnv(env, 'A', REPO),
    B: scenario.sideFromEnv(env, 'B', REPO),
  };
  const name = env.NAME || runName(`${scenario.name}-ab`);
  const { rounds, summaries } = await runAb({ scenario, sides, settings });
  const record = {
    title: `${scenario.name} A/B: ${name}`,
    sides: Object.fromEntries(
      Object.entries(sides).map(([label, side]) => [label, JSON.stringify(side)]),
    ),
    setup: `${settings.rounds} rounds, ${settings.connections} connections, ${settings.duration} s each, order alternating.`,
    summaries,
    rounds,
  };
  const dir = writeOutputs(name, { 'ab.md': abMarkdown(record), 'ab.json': abJson(record) });
  console.log(['', ...summaryRows(summaries), ''].join('\n'));
  for (const summary of summaries) console.log(verdictLine(scenario.name, summary, 'A'));
  console.log(`written to ${dir}`);
}
