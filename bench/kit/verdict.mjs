// What a B ÷ A ratio, with its interval, says about B. A change smaller than the threshold is
// "same"; a larger one is called only when the whole interval is on its side of 1, so noise
// alone never yields "slower" or "faster".

export const VERDICTS = Object.freeze({
  slower: 'slower',
  same: 'same',
  faster: 'faster',
  unclear: 'cannot tell at this noise',
});

/** Fewer ratios than this say nothing about their spread. */
export const MIN_RATIOS = 3;

/**
 * `ratio` is the median B ÷ A, `low`…`high` its interval, `count` the ratios behind it;
 * `better` says which way the metric improves ('higher' for pages/s, 'lower' for CPU per page).
 */
export function verdictOf({ ratio, low, high, count }, { better, threshold = 0.05 }) {
  if (count < MIN_RATIOS) return VERDICTS.unclear;
  if (low >= 1 - threshold && high <= 1 + threshold) return VERDICTS.same;
  const up = better === 'higher' ? VERDICTS.faster : VERDICTS.slower;
  const down = better === 'higher' ? VERDICTS.slower : VERDICTS.faster;
  if (low > 1 && ratio >= 1 + threshold) return up;
  if (high < 1 && ratio <= 1 - threshold) return down;
  return VERDICTS.unclear;
}
