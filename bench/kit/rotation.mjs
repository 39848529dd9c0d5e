// A rotation of several built checkouts: the order each round loads them in, and each side's
// metrics as ratios to a reference side, taken round by round (so a machine that speeds up or
// slows down during a round moves both) and then as their median. Pure.
import { median } from './stats.mjs';

/**
 * The order of round `round` (0-based): rounds come in pairs, the second the first reversed, and
 * each pair starts one place further along `labels`, so every side is loaded first and last, and
 * before and after each of the others, over twice as many rounds as there are sides.
 */
export function rotationOrder(labels, round) {
  const shift = Math.floor(round / 2);
  const rotated = labels.map((_, i) => labels[(i + shift) % labels.length]);
  return round % 2 ? rotated.reverse() : rotated;
}

/**
 * `rounds`: `[{ label: { metric: value } }]`. Answers `{ label: { metric: { median, low, high } } }`,
 * each side's value divided by `reference`'s in the same round, over the rounds.
 */
export function ratiosToReference(rounds, reference, metricKeys) {
  if (rounds.length === 0) throw new Error('no rounds to summarise');
  const labels = Object.keys(rounds[0]);
  if (!labels.includes(reference)) throw new Error(`no side called ${reference}`);
  return Object.fromEntries(
    labels.map((label) => [
      label,
      Object.fromEntries(
        metricKeys.map((key) => {
          const ratios = rounds.map((round) => round[label][key] / round[reference][key]);
          return [
            key,
            { median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) },
          ];
        }),
      ),
    ]),
  );
}

/** The summary as a markdown table, one row per side in `labels`' order. */
export function rotationMarkdown(summary, labels, metrics, reference) {
  const head = `| side | ${metrics.map((m) => `${m.label} ÷ ${reference}`).join(' | ')} |`;
  const rule = `|---|${metrics.map(() => '---:').join('|')}|`;
  const cell = ({ median: m, low, high }) =>
    `${m.toFixed(3)} (${low.toFixed(2)}–${high.toFixed(2)})`;
  const rows = labels.map(
    (label) => `| ${label} | ${metrics.map((m) => cell(summary[label][m.key])).join(' | ')} |`,
  );
  return [head, rule, ...rows].join('\n');
}
