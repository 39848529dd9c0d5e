import { describe, expect, it } from 'vitest';
import { runAb } from './ab-run.mjs';
import { VERDICTS } from './verdict.mjs';

/**
 * A scenario with no processes: B serves `factor` times A's pages; it logs every call.
 * `together`: it can also measure both sides at once.
 */
function fakeScenario(factor, { failOn, together = false } = {}) {
  const calls = [];
  const pages = (label) => ({ pages: label === 'B' ? 1000 * factor : 1000 });
  return {
    calls,
    name: 'fake',
    metrics: [{ key: 'pages', label: 'pages/s', better: 'higher' }],
    measuresTogether: together,
    async open(sides, settings, startOrder) {
      calls.push(`open ${sides.A.root} ${sides.B.root} ${settings.rounds} ${startOrder.join('')}`);
      let measured = 0;
      return {
        async measure(label) {
          measured += 1;
          calls.push(`measure ${label}`);
          if (measured === failOn) throw new Error('the service died');
          return pages(label);
        },
        async measureTogether(order) {
          calls.push(`measure ${order.join('+')}`);
          return Object.fromEntries(order.map((label) => [label, pages(label)]));
        },
        async close() {
          calls.push('close');
        },
      };
    },
  };
}

const sides = { A: { root: 'a' }, B: { root: 'b' } };

describe('runAb', () => {
  it('measures both sides every round, alternating which goes first, then closes', async () => {
    const scenario = fakeScenario(1);
    const lines = [];
    await runAb({ scenario, sides, settings: { rounds: 3 }, say: (line) => lines.push(line) });
    expect(scenario.calls).toEqual([
      'open a b 3 AB',
      'measure A',
      'measure B',
      'measure B',
      'measure A',
      'measure A',
      'measure B',
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
    expect(summaries[0]).toMatchObject({ ratio: 0.8, verdict: VERDICTS.slower });
  });

  it('closes the session when a measurement fails', async () => {
    const scenario = fakeScenario(1, { failOn: 3 });
    await expect(
      runAb({ scenario, sides, settings: { rounds: 2 }, say: () => {} }),
    ).rejects.toThrow('the service died');
    expect(scenario.calls.at(-1)).toBe('close');
  });

  it('starts a fresh session every restartEvery rounds, closing each', async () => {
    const scenario = fakeScenario(1);
    const lines = [];
    await runAb({
      scenario,
      sides,
      settings: { rounds: 3, restartEvery: 2 },
      say: (line) => lines.push(line),
    });
    expect(scenario.calls).toEqual([
      'open a b 3 AB',
      'measure A',
      'measure B',
      'measure B',
      'measure A',
      'close',
      'open a b 3 BA',
      'measure A',
      'measure B',
      'close',
    ]);
    expect(lines.filter((line) => line.includes('fresh processes'))).toEqual([
      '[fake] fresh processes: rounds 1–2',
      '[fake] fresh processes: round 3',
    ]);
  });

  it('loads both sides at once when together, alternating which starts', async () => {
    const scenario = fakeScenario(0.8, { together: true });
    const { rounds } = await runAb({
      scenario,
      sides,
      settings: { rounds: 2, together: true },
      say: () => {},
    });
    expect(scenario.calls).toEqual(['open a b 2 AB', 'measure A+B', 'measure B+A', 'close']);
    expect(rounds).toEqual([
      { order: 'A+B', A: { pages: 1000 }, B: { pages: 800 } },
      { order: 'B+A', A: { pages: 1000 }, B: { pages: 800 } },
    ]);
  });

  it('refuses together for a scenario that cannot, before starting anything', async () => {
    const scenario = fakeScenario(1);
    await expect(
      runAb({ scenario, sides, settings: { rounds: 2, together: true }, say: () => {} }),
    ).rejects.toThrow('the fake scenario cannot load both sides at the same time');
    expect(scenario.calls).toEqual([]);
  });
});
