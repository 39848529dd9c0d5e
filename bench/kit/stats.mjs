// Order statistics and a bootstrap interval for a handful of per-round ratios. Pure: the random
// source is a parameter, so a seed gives the same interval every time.

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values) {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The `q` quantile (0…1) of `values`, interpolating linearly between order statistics. */
export function quantile(values, q) {
  if (values.length === 0) throw new Error('quantile of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

/**
 * The nearest-rank `q` quantile (0…1): the smallest value with at least a `q` share of `values`
 * at or below it. An observed value, never an interpolation (latency percentiles).
 */
export function nearestRank(values, q) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** A small seeded generator (mulberry32): numbers in [0, 1). */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A percentile bootstrap interval for the median of `values`: resample with replacement,
 * take each resample's median, keep the middle `confidence` of them. With few rounds this is
 * close to the range of the middle ratios, and it widens as the rounds disagree.
 */
export function bootstrapMedianInterval(
  values,
  { resamples = 2000, confidence = 0.9, random = seededRandom(1) } = {},
) {
  if (values.length === 0) throw new Error('interval of no values');
  const medians = [];
  const sample = Array.from({ length: values.length });
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < values.length; i++)
      sample[i] = values[Math.floor(random() * values.length)];
    medians.push(median(sample));
  }
  const tail = (1 - confidence) / 2;
  return { low: quantile(medians, tail), high: quantile(medians, 1 - tail) };
}

/**
 * The value of a cumulative series at time `t`: `samples` are `[time, value]` pairs in time
 * order, read linearly between the two around `t` and held flat outside them (a counter sampled
 * every few ms, read at the edges of a measured window).
 */
export function valueAt(samples, t) {
  if (samples.length === 0) throw new Error('valueAt of no samples');
  if (t <= samples[0][0]) return samples[0][1];
  const after = samples.findIndex(([time]) => time >= t);
  if (after < 0) return samples.at(-1)[1];
  const [t0, v0] = samples[after - 1];
  const [t1, v1] = samples[after];
  return v0 + ((v1 - v0) * (t - t0)) / (t1 - t0 || 1);
}
