import { describe, expect, it } from 'vitest';
import { runAb, sessionRounds } from './ab-run.mjs';
import { VERDICTS } from './verdict.mjs';

/** A scenario with no processes: side `b` serves `factor` times `a`'s pages; it logs every call. */
function fakeScenario(factor, { failOn } = {}) {
  const calls = [];
  return {
    calls,
    name: 'fake',
    metrics: [{ key: 'pages', label: 'pages/s', better: 'higher' }],
    async open(sides, settings) {
      calls.push(`open ${sides.A.root} ${sides.B.root} ${settings.rounds}`);
      let measured = 0;
      return {
        async measure(label) {
          measured += 1;
          calls.push(`measure ${sides[label].root}`);
          if (measured === failOn) throw new Error('the service died');
          return { pages: sides[label].root === 'b' ? 1000 * factor : 1000 };
        },
        async close() {
          calls.push('close');
        },
      };
    },
  };
}

const sides = { A: { root: 'a' }, B: { root: 'b' } };

describe('sessionRounds', () => {
  it('starts A first for the first half of the rounds (the odd one too), B first for the rest', () => {
    expect(sessionRounds(5)).toEqual([
      { startFirst: 'A', rounds: 3 },
      { startFirst: 'B', rounds: 2 },
    ]);
    expect(sessionRounds(1)).toEqual([{ startFirst: 'A', rounds: 1 }]);
  });
});

describe('runAb', () => {
  it('measures both sides every round, alternating which goes first, in two sessions that start the sides in both orders', async () => {
    const scenario = fakeScenario(1);
    const lines = [];
    await runAb({ scenario, sides, settings: { rounds: 3 }, say: (line) => lines.push(line) });
    expect(scenario.calls).toEqual([
      'open a b 3',
      'measure a',
      'measure b',
      'measure b',
      'measure a',
      'close',
      'open b a 3',
      'measure a',
      'measure b',
      'close',
    ]);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^\[fake 2\/3\] BA: pages\/s A 1000\.000 B 1000\.000/);
  });

  it('summarises the rounds into a verdict', async () => {
    const { rounds, summaries } = await runAb({
      scenario: fakeScenario(0.8),
      sides,
      settings: { rounds: 4, threshold: 0.05 },
      say: () => {},
    });
    expect(rounds.map((r) => r.order)).toEqual(['AB', 'BA', 'AB', 'BA']);
    expect(rounds.map((r) => r.startedFirst)).toEqual(['A', 'A', 'B', 'B']);
    // The swapped session's measurements keep their real labels.
    expect(rounds.every((r) => r.B.pages === 800 && r.A.pages === 1000)).toBe(true);
    expect(summaries[0]).toMatchObject({ ratio: 0.8, verdict: VERDICTS.slower });
  });

  it('closes the session when a measurement fails', async () => {
    const scenario = fakeScenario(1, { failOn: 2 });
    await expect(
      runAb({ scenario, sides, settings: { rounds: 2 }, say: () => {} }),
    ).rejects.toThrow('the service died');
    expect(scenario.calls.at(-1)).toBe('close');
  });
});
