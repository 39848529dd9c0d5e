import { describe, expect, it } from 'vitest';
import {
  abSettingsFromEnv,
  assignmentsOf,
  cpuListOf,
  flagsOf,
  positiveInteger,
  positiveNumber,
  switchOf,
  wordsOf,
} from './settings.mjs';

describe('the A/B environment interface', () => {
  it('splits words, ignoring extra spaces and an unset value', () => {
    expect(wordsOf(' --a  --b=1 ')).toEqual(['--a', '--b=1']);
    expect(wordsOf(undefined)).toEqual([]);
  });

  it('reads assignments, keeping any "=" in the value', () => {
    expect(assignmentsOf('A=1 B=x=y C=')).toEqual({ A: '1', B: 'x=y', C: '' });
    expect(() => assignmentsOf('A=1 oops')).toThrow('not VAR=value: oops');
  });

  it('takes the fallback flags only when unset; empty or none means none', () => {
    expect(flagsOf(undefined, ['--deployed'])).toEqual(['--deployed']);
    expect(flagsOf('', ['--deployed'])).toEqual([]);
    expect(flagsOf('none', ['--deployed'])).toEqual([]);
    expect(flagsOf('--x --y', ['--deployed'])).toEqual(['--x', '--y']);
  });

  it('accepts positive numbers only', () => {
    expect(positiveNumber('ROUNDS', undefined, 8)).toBe(8);
    expect(positiveNumber('ROUNDS', '3', 8)).toBe(3);
    expect(() => positiveNumber('ROUNDS', '0', 8)).toThrow('ROUNDS must be a positive number');
    expect(() => positiveNumber('ROUNDS', 'lots', 8)).toThrow('ROUNDS');
  });
});

describe('the settings of a run', () => {
  const defaults = { rounds: 4, duration: 6, connections: 50 };

  it('defaults to the tool’s numbers, one session, one side at a time, no pinning', () => {
    expect(abSettingsFromEnv({}, defaults)).toEqual({
      ...defaults,
      restartEvery: undefined,
      together: false,
      pin: {},
    });
  });

  it('reads RESTART_EVERY, TOGETHER and the CPU lists', () => {
    expect(
      abSettingsFromEnv(
        { ROUNDS: '20', RESTART_EVERY: '2', TOGETHER: '1', RENDER_CPUS: '0', DATA_CPUS: '0-1' },
        defaults,
      ),
    ).toEqual({
      rounds: 20,
      duration: 6,
      connections: 50,
      restartEvery: 2,
      together: true,
      pin: { render: '0', data: '0-1' },
    });
    expect(abSettingsFromEnv({ RELAY_CPUS: '1', TOGETHER: '0' }, defaults)).toMatchObject({
      together: false,
      pin: { relay: '1' },
    });
  });

  it('refuses a RESTART_EVERY that is not a positive whole number', () => {
    expect(positiveInteger('RESTART_EVERY', '', undefined)).toBeUndefined();
    for (const bad of ['0', '-1', '1.5', 'x'])
      expect(() => abSettingsFromEnv({ RESTART_EVERY: bad }, defaults)).toThrow(
        `RESTART_EVERY must be a positive whole number, got ${bad}`,
      );
  });

  it('takes TOGETHER as 1 or 0 only', () => {
    expect(switchOf('TOGETHER', undefined)).toBe(false);
    expect(switchOf('TOGETHER', '1')).toBe(true);
    expect(() => abSettingsFromEnv({ TOGETHER: 'yes' }, defaults)).toThrow(
      'TOGETHER must be 1 or 0, got yes',
    );
  });

  it('takes taskset CPU lists and refuses anything else', () => {
    for (const good of ['0', '1', '0-1', '0,2', '0-1,3']) expect(cpuListOf('X', good)).toBe(good);
    expect(cpuListOf('X', undefined)).toBeUndefined();
    for (const bad of ['a', '0-', '0 1', '-1', '0,,1'])
      expect(() => abSettingsFromEnv({ DATA_CPUS: bad }, defaults)).toThrow(
        `DATA_CPUS must be a CPU list such as 0, 0-1 or 0,2 (taskset -c), got ${bad}`,
      );
  });
});
