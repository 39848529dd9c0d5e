#!/usr/bin/env node
// The drift guard (`npm run bench:guard`): each scenario A/B with A = the baseline (a clean,
// cached build of bench/baseline's commit, or --baseline) and B = this working tree, rebuilt
// first. Rounds alternate the order; each scenario has its own defaults (guard/args.mjs: the
// render scenario loads both sides at once, with fresh processes every few rounds). It ends with
// one line per scenario and metric saying slower / same / faster / cannot tell, and exits 1 if
// anything is slower. Raw output goes to bench/.out/guard-<time>/; --record appends a dated row
// to bench/GUARD.md.
import { assertScenarioCanRun } from './kit/ab-plan.mjs';
import { runAb } from './kit/ab-run.mjs';
import { REPO, runName, writeOutputs } from './kit/out.mjs';
import { abJson, abMarkdown, setupLine, treeLabel, verdictLine } from './kit/report.mjs';
import { VERDICTS } from './kit/verdict.mjs';
import {
  SCENARIO_DEFAULTS,
  USAGE,
  commandLine,
  guardOptions,
  scenarioSettings,
} from './guard/args.mjs';
import {
  buildWorkingTree,
  builtBaseline,
  resolveBaseline,
  workingTree,
} from './guard/baseline.mjs';
import { recordGuardRun } from './guard/record.mjs';
import * as relay from './relay/scenario.mjs';
import * as render from './render/scenario.mjs';

const SCENARIOS = { render, relay };

const argv = process.argv.slice(2);
let options;
try {
  options = guardOptions(argv);
} catch (error) {
  console.error(`${error.message}\n${USAGE}`);
  process.exit(64);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
try {
  for (const key of options.scenarios)
    assertScenarioCanRun(SCENARIOS[key], scenarioSettings(options, SCENARIO_DEFAULTS[key]));
} catch (error) {
  console.error(`--together: ${error.message} (pick a scenario that can, e.g. --scenario render)`);
  process.exit(64);
}

let commit;
try {
  commit = resolveBaseline(REPO, options.baseline);
} catch (error) {
  console.error(`[guard] ${error.message}`);
  process.exit(1);
}
const baselineDir = builtBaseline(REPO, commit);
buildWorkingTree(REPO, console.log);
const tree = workingTree(REPO);

const name = runName('guard');
const lines = [];
let slower = false;
for (const key of options.scenarios) {
  const scenario = SCENARIOS[key];
  const settings = scenarioSettings(options, SCENARIO_DEFAULTS[key]);
  const setup = setupLine(settings);
  console.log(`[guard] ${key}: ${setup} Baseline ${commit.slice(0, 7)} ÷ working tree.`);
  const sides = { A: scenario.plainSide(baselineDir), B: scenario.plainSide(REPO) };
  const { rounds, summaries } = await runAb({ scenario, sides, settings });
  const record = {
    title: `${key}: working tree against ${commit.slice(0, 7)}`,
    sides: { A: `baseline ${commit}`, B: `working tree at ${treeLabel(tree.head, tree.dirty)}` },
    setup,
    summaries,
    rounds,
  };
  writeOutputs(name, { [`${key}.md`]: abMarkdown(record), [`${key}.json`]: abJson(record) });
  for (const summary of summaries) {
    lines.push(verdictLine(key, summary));
    slower ||= summary.verdict === VERDICTS.slower;
  }
}

console.log(['', ...lines].join('\n'));
console.log(`raw output: bench/.out/${name}/`);
if (options.record) {
  recordGuardRun(REPO, {
    command: commandLine(argv),
    baseline: commit.slice(0, 7),
    tree: treeLabel(tree.head, tree.dirty),
    lines,
  });
  console.log('recorded in bench/GUARD.md');
}
process.exitCode = slower ? 1 : 0;
