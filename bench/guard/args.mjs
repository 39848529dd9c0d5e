// The drift guard's command line and which baseline it compares with. Pure.
import { parseArgs } from 'node:util';

export const SCENARIOS = ['render', 'relay'];

export const USAGE = `usage: npm run bench:guard -- [--baseline <commit|tag>] [--scenario render|relay|all]
                           [--rounds N] [--duration S] [--threshold 0.05] [--record]
                           [--restart-every N] [--together]`;

/** The guard's options from `argv`; throws with a message on anything it does not know. */
export function guardOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      baseline: { type: 'string' },
      scenario: { type: 'string', default: 'all' },
      rounds: { type: 'string', default: '8' },
      duration: { type: 'string' },
      threshold: { type: 'string', default: '0.05' },
      record: { type: 'boolean', default: false },
      'restart-every': { type: 'string' },
      together: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
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
    rounds: number('rounds', values.rounds, (n) => Number.isInteger(n) && n > 0),
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
