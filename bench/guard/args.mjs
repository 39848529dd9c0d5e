// The drift guard's command line and which baseline it compares with. Pure.
import { parseArgs } from 'node:util';

export const SCENARIOS = ['render', 'relay'];

export const USAGE = `usage: npm run bench:guard -- [--baseline <commit|tag>] [--scenario render|relay|all]
                           [--rounds N] [--duration S] [--threshold 0.05] [--record]
                           [--restart-every N] [--together | --no-together]`;

/**
 * How each scenario runs unless told otherwise. The render scenario loads both sides together in
 * many short rounds with fresh processes every few: in one session, one side at a time, a build
 * against itself can read "slower" (the evidence: bench/GUARD.md). The relay starts a fresh relay
 * for every measurement already and cannot load both sides at once.
 */
export const SCENARIO_DEFAULTS = {
  render: { rounds: 24, duration: 3, restartEvery: 4, together: true, connections: 50 },
  relay: { rounds: 8, duration: 10, restartEvery: undefined, together: false, connections: 64 },
};

/** The guard's options from `argv`; throws with a message on anything it does not know. */
export function guardOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      baseline: { type: 'string' },
      scenario: { type: 'string', default: 'all' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      threshold: { type: 'string', default: '0.05' },
      record: { type: 'boolean', default: false },
      'restart-every': { type: 'string' },
      together: { type: 'boolean' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowNegative: true,
    allowPositionals: false,
  });
  const scenarios = values.scenario === 'all' ? SCENARIOS : [values.scenario];
  if (!SCENARIOS.includes(scenarios[0]))
    throw new Error(`--scenario must be render, relay or all, not ${values.scenario}`);
  const number = (name, value, test) => {
    const parsed = Number(value);
    if (!test(parsed)) throw new Error(`--${name}: ${value} is out of range`);
    return parsed;
  };
  return {
    baseline: values.baseline,
    scenarios,
    rounds: values.rounds && number('rounds', values.rounds, (n) => Number.isInteger(n) && n > 0),
    duration: values.duration && number('duration', values.duration, (n) => n > 0),
    threshold: number('threshold', values.threshold, (n) => n > 0 && n < 1),
    record: values.record,
    restartEvery:
      values['restart-every'] === undefined
        ? undefined
        : number('restart-every', values['restart-every'], (n) => Number.isInteger(n) && n > 0),
    together: values.together,
    help: values.help,
  };
}

/** One scenario's A/B settings: what the command line says, else the scenario's defaults. */
export function scenarioSettings(options, defaults) {
  return {
    ...defaults,
    rounds: options.rounds ?? defaults.rounds,
    duration: options.duration ?? defaults.duration,
    restartEvery: options.restartEvery ?? defaults.restartEvery,
    together: options.together ?? defaults.together,
    threshold: options.threshold,
  };
}

/**
 * The baseline to resolve: the one asked for, else the commit in bench/baseline (moved at each
 * release), else the last release tag; null when there is none of them.
 */
export function baselineRef({ asked, recorded, lastTag }) {
  const fromFile = recorded?.split('\n')[0].trim();
  return asked || fromFile || lastTag || null;
}

/** The command as the person would retype it, for the record. */
export const commandLine = (argv) =>
  ['npm run bench:guard', ...(argv.length ? ['--', ...argv] : [])].join(' ');
