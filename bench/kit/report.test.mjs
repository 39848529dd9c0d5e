import { describe, expect, it } from 'vitest';
import {
  abJson,
  abMarkdown,
  guardRow,
  roundLine,
  setupLine,
  summaryRows,
  treeLabel,
  verdictLine,
} from './report.mjs';

const summary = {
  key: 'rps',
  label: 'pages/s',
  better: 'higher',
  a: 1000,
  b: 970,
  ratios: [0.96, 0.97, 0.98],
  ratio: 0.97,
  low: 0.951,
  high: 0.989,
  verdict: 'same',
};
const rounds = [{ order: 'AB', A: { rps: 1000 }, B: { rps: 970 } }];

describe('report', () => {
  it('says a metric in one line', () => {
    expect(verdictLine('render', summary)).toBe(
      'render pages/s: 0.97× baseline (spread 0.95–0.99): same',
    );
    expect(verdictLine('render', summary, 'A')).toContain('0.97× A');
  });

  it('prints a round with both sides and B ÷ A', () => {
    const scenario = { name: 'render', metrics: [summary] };
    expect(roundLine(scenario, 0, 8, rounds[0])).toBe(
      '[render 1/8] AB: pages/s A 1000.000 B 970.000 (B÷A 0.970)',
    );
  });

  it('tables the summary with every round’s ratio', () => {
    expect(summaryRows([summary])[2]).toBe(
      '| pages/s | 1000.000 | 970.000 | 0.970 | 0.951–0.989 | same | 0.96 / 0.97 / 0.98 |',
    );
  });

  it('writes the whole A/B as markdown and as JSON that reads back', () => {
    const record = {
      title: 't',
      sides: { A: 'a', B: 'b' },
      setup: 's',
      summaries: [summary],
      rounds,
    };
    const markdown = abMarkdown(record);
    expect(markdown).toContain('- A: a');
    expect(markdown).toContain('| round | order | A pages/s | B pages/s |');
    expect(markdown).toContain('| 1 | AB | 1000.000 | 970.000 |');
    expect(JSON.parse(abJson(record))).toEqual(record);
  });

  it('makes a guard row with the command and the verdicts', () => {
    expect(
      guardRow({
        date: '2026-01-01',
        command: 'npm run bench:guard',
        baseline: 'abc',
        tree: treeLabel('def', true),
        lines: ['x', 'y'],
      }),
    ).toBe('| 2026-01-01 | `npm run bench:guard` | `abc` | `def` + uncommitted changes | x<br>y |');
    expect(treeLabel('def', false)).toBe('`def`');
  });

  it('says the settings of a run in its header', () => {
    expect(setupLine({ rounds: 4, duration: 6, connections: 50 })).toBe(
      '4 rounds of 6 s, 50 connections per side; one side at a time, order alternating; one session for all rounds; not pinned.',
    );
    expect(
      setupLine({
        rounds: 20,
        duration: 2,
        connections: 50,
        restartEvery: 1,
        together: true,
        pin: { render: '0', data: '1' },
      }),
    ).toBe(
      '20 rounds of 2 s, 50 connections per side; both sides loaded together; fresh processes every round; pinned: render on CPUs 0, data on CPUs 1.',
    );
    expect(setupLine({ rounds: 8, duration: 6, connections: 50, restartEvery: 4 })).toContain(
      'fresh processes every 4 rounds',
    );
  });

  it('leaves connections out of the header of a run that has none', () => {
    expect(setupLine({ rounds: 6, duration: 0.4 })).toBe(
      '6 rounds of 0.4 s; one side at a time, order alternating; one session for all rounds; not pinned.',
    );
  });
});
