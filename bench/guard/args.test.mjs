import { describe, expect, it } from 'vitest';
import {
  SCENARIO_DEFAULTS,
  baselineRef,
  commandLine,
  guardOptions,
  scenarioSettings,
} from './args.mjs';

describe('guardOptions', () => {
  it('defaults to every scenario, a 5% threshold, no record, and leaves the rest to each scenario', () => {
    expect(guardOptions([])).toEqual({
      baseline: undefined,
      scenarios: ['render', 'relay'],
      rounds: undefined,
      duration: undefined,
      threshold: 0.05,
      record: false,
      restartEvery: undefined,
      together: undefined,
      help: false,
    });
  });

  it('takes a baseline, one scenario, rounds, duration and --record', () => {
    expect(
      guardOptions([
        '--baseline',
        'v1.2.0',
        '--scenario',
        'relay',
        '--rounds',
        '12',
        '--duration',
        '2',
        '--record',
      ]),
    ).toMatchObject({
      baseline: 'v1.2.0',
      scenarios: ['relay'],
      rounds: 12,
      duration: 2,
      record: true,
    });
  });

  it('refuses unknown scenarios, bad numbers and unknown flags', () => {
    expect(() => guardOptions(['--scenario', 'cache'])).toThrow('render, relay or all');
    expect(() => guardOptions(['--rounds', '0'])).toThrow('--rounds');
    expect(() => guardOptions(['--rounds', '2.5'])).toThrow('--rounds');
    expect(() => guardOptions(['--threshold', '5'])).toThrow('--threshold');
    expect(() => guardOptions(['--fast'])).toThrow("Unknown option '--fast'");
  });
});

describe('guardOptions: restarts and together', () => {
  it('takes --restart-every N and --together', () => {
    expect(guardOptions(['--restart-every', '2', '--together'])).toMatchObject({
      restartEvery: 2,
      together: true,
    });
    expect(guardOptions(['--restart-every=1'])).toMatchObject({
      restartEvery: 1,
      together: undefined,
    });
    expect(guardOptions(['--no-together'])).toMatchObject({ together: false });
  });

  it('refuses a --restart-every that is not a positive whole number', () => {
    expect(() => guardOptions(['--restart-every', '0'])).toThrow('--restart-every: 0');
    expect(() => guardOptions(['--restart-every', 'x'])).toThrow('--restart-every: x');
    expect(() => guardOptions(['--restart-every', '1.5'])).toThrow('--restart-every');
    expect(() => guardOptions(['--restart-every'])).toThrow("'--restart-every <value>'");
  });

  it('takes no value after --together', () => {
    expect(() => guardOptions(['--together=yes'])).toThrow('--together');
  });
});

describe('baselineRef', () => {
  it('prefers the one asked for, then bench/baseline, then the last release tag', () => {
    expect(baselineRef({ asked: 'abc', recorded: 'def\n', lastTag: 'v1' })).toBe('abc');
    expect(baselineRef({ recorded: ' def \nnotes', lastTag: 'v1' })).toBe('def');
    expect(baselineRef({ recorded: '\n', lastTag: 'v1' })).toBe('v1');
    expect(baselineRef({})).toBeNull();
  });
});

describe('commandLine', () => {
  it('rebuilds the npm command with its arguments', () => {
    expect(commandLine([])).toBe('npm run bench:guard');
    expect(commandLine(['--rounds', '4'])).toBe('npm run bench:guard -- --rounds 4');
  });
});

describe('scenarioSettings', () => {
  it('runs the render scenario together, in short rounds with restarts, unless told otherwise', () => {
    const render = scenarioSettings(guardOptions([]), SCENARIO_DEFAULTS.render);
    expect(render).toMatchObject({ rounds: 24, duration: 3, restartEvery: 4, together: true });
    expect(render.threshold).toBe(0.05);
    expect(
      scenarioSettings(
        guardOptions(['--no-together', '--rounds', '8', '--duration', '6', '--restart-every', '8']),
        SCENARIO_DEFAULTS.render,
      ),
    ).toMatchObject({ rounds: 8, duration: 6, restartEvery: 8, together: false });
  });

  it('runs the relay one side at a time in one session by default', () => {
    expect(scenarioSettings(guardOptions([]), SCENARIO_DEFAULTS.relay)).toMatchObject({
      rounds: 8,
      duration: 10,
      restartEvery: undefined,
      together: false,
      connections: 64,
    });
  });
});
