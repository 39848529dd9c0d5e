// The A/B tools' environment interface, parsed: `--flag …` words, `VAR=value …` assignments,
// numbers, switches, CPU lists and the settings of a run. Pure.

/** Space-separated words of `value` (none when unset). */
export const wordsOf = (value) => (value || '').split(' ').filter(Boolean);

/** `VAR=value VAR2=a=b` as `{ VAR: 'value', VAR2: 'a=b' }`. */
export const assignmentsOf = (value) =>
  Object.fromEntries(
    wordsOf(value).map((word) => {
      const equals = word.indexOf('=');
      if (equals <= 0) throw new Error(`not VAR=value: ${word}`);
      return [word.slice(0, equals), word.slice(equals + 1)];
    }),
  );

/** Node flags from `value`: `fallback` when unset, none for an empty string or `none`. */
export function flagsOf(value, fallback) {
  if (value === undefined) return fallback;
  return value === 'none' ? [] : wordsOf(value);
}

/** A positive number from `value`, or `fallback` when unset; anything else is an error. */
export function positiveNumber(name, value, fallback) {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!(number > 0)) throw new Error(`${name} must be a positive number, got ${value}`);
  return number;
}

/** A positive whole number from `value`, or `fallback` when unset; anything else is an error. */
export function positiveInteger(name, value, fallback) {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!(Number.isInteger(number) && number > 0))
    throw new Error(`${name} must be a positive whole number, got ${value}`);
  return number;
}

/** A switch: `1` on, `0` or unset off; anything else is an error (a typo must not measure the other mode). */
export function switchOf(name, value) {
  if (value === undefined || value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new Error(`${name} must be 1 or 0, got ${value}`);
}

const CPU_LIST = /^\d+(-\d+)?(,\d+(-\d+)?)*$/;

/** A `taskset -c` CPU list (`0`, `0-1`, `0,2`), or undefined when unset; anything else is an error. */
export function cpuListOf(name, value) {
  if (value === undefined || value === '') return undefined;
  if (!CPU_LIST.test(value))
    throw new Error(`${name} must be a CPU list such as 0, 0-1 or 0,2 (taskset -c), got ${value}`);
  return value;
}

/**
 * An A/B's settings from the environment (ab-cli.mjs's interface), with a tool's `defaults`
 * (`{ rounds, duration, connections }`): ROUNDS, DURATION, CONNECTIONS; RESTART_EVERY (fresh
 * processes every n rounds; unset: one session for the run); TOGETHER=1 (both sides loaded in
 * the same seconds); RENDER_CPUS, DATA_CPUS, RELAY_CPUS (pin those services).
 */
export function abSettingsFromEnv(env, defaults) {
  const pin = {
    render: cpuListOf('RENDER_CPUS', env.RENDER_CPUS),
    data: cpuListOf('DATA_CPUS', env.DATA_CPUS),
    relay: cpuListOf('RELAY_CPUS', env.RELAY_CPUS),
  };
  return {
    rounds: positiveNumber('ROUNDS', env.ROUNDS, defaults.rounds),
    duration: positiveNumber('DURATION', env.DURATION, defaults.duration),
    connections: positiveNumber('CONNECTIONS', env.CONNECTIONS, defaults.connections),
    restartEvery: positiveInteger('RESTART_EVERY', env.RESTART_EVERY, undefined),
    together: switchOf('TOGETHER', env.TOGETHER),
    pin: Object.fromEntries(Object.entries(pin).filter(([, cpus]) => cpus !== undefined)),
  };
}
