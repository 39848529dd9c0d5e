// The A/B entry points' shared body: settings and sides from the environment, the rounds, and
// the report in bench/.out/<NAME>/ (ab.md, ab.json), ending with one verdict line per metric.
import { assertScenarioCanRun } from './ab-plan.mjs';
import { runAb } from './ab-run.mjs';
import { abJson, abMarkdown, setupLine, summaryRows, verdictLine } from './report.mjs';
import { REPO, runName, writeOutputs } from './out.mjs';
import { abSettingsFromEnv } from './settings.mjs';

/** A setting the run cannot take: said without a stack, before anything starts. */
function refuse(scenario, message) {
  console.error(`[${scenario.name}] ${message}`);
  process.exitCode = 64;
}

/** Runs `scenario` A against B as `env` describes; `defaults`: `{ rounds, duration, connections }`. */
export async function abFromEnv(scenario, env, defaults) {
  let settings;
  try {
    settings = abSettingsFromEnv(env, defaults);
  } catch (error) {
    return refuse(scenario, error.message);
  }
  try {
    assertScenarioCanRun(scenario, settings);
  } catch (error) {
    return refuse(scenario, `TOGETHER=1: ${error.message}`);
  }
  const setup = setupLine(settings);
  const sides = {
    A: scenario.sideFromEnv(env, 'A', REPO),
    B: scenario.sideFromEnv(env, 'B', REPO),
  };
  const name = env.NAME || runName(`${scenario.name}-ab`);
  console.log(`[${scenario.name}] ${setup}`);
  const { rounds, summaries } = await runAb({ scenario, sides, settings });
  const record = {
    title: `${scenario.name} A/B: ${name}`,
    sides: Object.fromEntries(
      Object.entries(sides).map(([label, side]) => [label, JSON.stringify(side)]),
    ),
    setup,
    summaries,
    rounds,
  };
  const dir = writeOutputs(name, { 'ab.md': abMarkdown(record), 'ab.json': abJson(record) });
  console.log(['', setup, '', ...summaryRows(summaries), ''].join('\n'));
  for (const summary of summaries) console.log(verdictLine(scenario.name, summary, 'A'));
  console.log(`written to ${dir}`);
}
