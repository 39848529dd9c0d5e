import { describe, expect, it } from 'vitest';
import { assignmentsOf, flagsOf, positiveNumber, wordsOf } from './settings.mjs';

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
