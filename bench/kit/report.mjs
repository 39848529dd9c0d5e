// What an A/B comes to, as text: the one-line verdict per metric, a markdown report with every
// round, a dated guard row and the JSON record. Pure: writing is out.mjs's job.

const fixed = (value, digits) => value.toFixed(digits);

/** `render pages/s: 0.97× baseline (spread 0.95–0.99): slower`. */
export function verdictLine(scenario, summary, against = 'baseline') {
  return (
    `${scenario} ${summary.label}: ${fixed(summary.ratio, 2)}× ${against}` +
    ` (spread ${fixed(summary.low, 2)}–${fixed(summary.high, 2)}): ${summary.verdict}`
  );
}

/**
 * The settings of a run, for its report's header: rounds and load, one side at a time or both
 * together, how often fresh processes start, and the pinning.
 */
export function setupLine({ rounds, duration, connections, restartEvery, together, pin = {} }) {
  const pinned = Object.entries(pin).map(([service, cpus]) => `${service} on CPUs ${cpus}`);
  const sessions = !restartEvery
    ? 'one session for all rounds'
    : `fresh processes every ${restartEvery === 1 ? 'round' : `${restartEvery} rounds`}`;
  return `${[
    // A scenario with no connections (an in-process one) takes none.
    `${rounds} rounds of ${duration} s${connections === undefined ? '' : `, ${connections} connections per side`}`,
    together ? 'both sides loaded together' : 'one side at a time, order alternating',
    sessions,
    pinned.length ? `pinned: ${pinned.join(', ')}` : 'not pinned',
  ].join('; ')}.`;
}

/** The progress line of one round: each metric for A and B, and B ÷ A. */
export function roundLine(scenario, index, total, round) {
  const values = scenario.metrics.map(
    ({ key, label }) =>
      `${label} A ${round.A[key].toFixed(3)} B ${round.B[key].toFixed(3)} (B÷A ${(round.B[key] / round.A[key]).toFixed(3)})`,
  );
  return `[${scenario.name} ${index + 1}/${total}] ${round.order}: ${values.join(', ')}`;
}

/** One markdown table row per metric: medians of A and B, B ÷ A, spread, verdict, each round's ratio. */
export function summaryRows(summaries) {
  return [
    '| measure | A (median) | B (median) | B ÷ A | spread | verdict | B ÷ A per round |',
    '|---|---:|---:|---:|---|---|---|',
    ...summaries.map(
      (s) =>
        `| ${s.label} | ${fixed(s.a, 3)} | ${fixed(s.b, 3)} | ${fixed(s.ratio, 3)} | ${fixed(s.low, 3)}–${fixed(s.high, 3)} | ${s.verdict} | ${s.ratios.map((r) => fixed(r, 2)).join(' / ')} |`,
    ),
  ];
}

/** The whole A/B as markdown: title, sides, setup, the summary table and each round's values. */
export function abMarkdown({ title, sides, setup, summaries, rounds }) {
  const keys = summaries.map((s) => s.key);
  const labels = summaries.map((s) => s.label);
  return [
    `# ${title}`,
    '',
    ...Object.entries(sides).map(([label, side]) => `- ${label}: ${side}`),
    '',
    setup,
    '',
    ...summaryRows(summaries),
    '',
    `| round | order | ${labels.map((l) => `A ${l} | B ${l}`).join(' | ')} |`,
    `|---:|---|${keys.map(() => '---:|---:').join('|')}|`,
    ...rounds.map(
      (round, i) =>
        `| ${i + 1} | ${round.order} | ${keys.map((k) => `${fixed(round.A[k], 3)} | ${fixed(round.B[k], 3)}`).join(' | ')} |`,
    ),
    '',
  ].join('\n');
}

/** The JSON record of an A/B (everything needed to redo the summary). */
export const abJson = ({ title, sides, setup, summaries, rounds }) =>
  `${JSON.stringify({ title, sides, setup, summaries, rounds }, null, 2)}\n`;

/** A dated row for bench/GUARD.md: date, command, baseline, working tree, each metric's verdict. */
export function guardRow({ date, command, baseline, tree, lines }) {
  return `| ${date} | \`${command}\` | \`${baseline}\` | ${tree} | ${lines.join('<br>')} |`;
}

/** The working tree as measured: its commit, and whether uncommitted changes were in it. */
export const treeLabel = (head, dirty) => `\`${head}\`${dirty ? ' + uncommitted changes' : ''}`;
