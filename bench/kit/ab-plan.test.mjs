import { describe, expect, it } from 'vitest';
import { assertScenarioCanRun, sessionsOf } from './ab-plan.mjs';

describe('sessionsOf', () => {
  it('runs every round in one session when no restarts are asked for', () => {
    expect(sessionsOf(3)).toEqual([[0, 1, 2]]);
    expect(sessionsOf(3, undefined)).toEqual([[0, 1, 2]]);
  });

  it('starts fresh processes every n rounds, the last session taking what is left', () => {
    expect(sessionsOf(4, 1)).toEqual([[0], [1], [2], [3]]);
    expect(sessionsOf(5, 2)).toEqual([[0, 1], [2, 3], [4]]);
    // The rounds that start fresh processes.
    expect(sessionsOf(10, 4).map((rounds) => rounds[0])).toEqual([0, 4, 8]);
  });

  it('keeps one session when n is at least the number of rounds', () => {
    expect(sessionsOf(3, 3)).toEqual([[0, 1, 2]]);
    expect(sessionsOf(3, 8)).toEqual([[0, 1, 2]]);
  });
});

describe('assertScenarioCanRun', () => {
  const sequentialOnly = { name: 'one-at-a-time' };
  const either = { name: 'render', measuresTogether: true };

  it('lets any scenario run one side at a time', () => {
    expect(() => assertScenarioCanRun(sequentialOnly, { together: false })).not.toThrow();
    expect(() => assertScenarioCanRun(either, {})).not.toThrow();
  });

  it('refuses together for a scenario that cannot load both sides at once', () => {
    expect(() => assertScenarioCanRun(either, { together: true })).not.toThrow();
    expect(() => assertScenarioCanRun(sequentialOnly, { together: true })).toThrow(
      'the one-at-a-time scenario cannot load both sides at the same time',
    );
  });
});
