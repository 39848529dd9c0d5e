// A/B rounds: the order each round runs its sides in, and what the rounds add up to per metric
// (medians of each side, per-round B ÷ A ratios, their median, interval and verdict).
import { bootstrapMedianInterval, median, seededRandom } from './stats.mjs';
import { verdictOf } from './verdict.mjs';

/** A then B on even rounds, B then A on odd ones: a drift over the run favours neither side. */
export const roundOrder = (round) => (round % 2 === 0 ? ['A', 'B'] : ['B', 'A']);

/**
 * `rounds` are `{ A: { key: value }, B: { key: value } }`; `metrics` are
 * `{ key, label, better }`. Returns one summary per metric.
 */
export function summariseAb(rounds, metrics, { threshold = 0.05, seed = 1 } = {}) {
  return metrics.map((metric) => {
    const ratios = rounds.map((round) => round.B[metric.key] / round.A[metric.key]);
    const ratio = median(ratios);
    const { low, high } = bootstrapMedianInterval(ratios, { random: seededRandom(seed) });
    return {
      ...metric,
      a: median(rounds.map((round) => round.A[metric.key])),
      b: median(rounds.map((round) => round.B[metric.key])),
      ratios,
      ratio,
      low,
      high,
      verdict: verdictOf({ ratio, low, high, count: ratios.length }, { ...metric, threshold }),
    };
  });
}
