/**
 * Whether the series names the dashboards query are ones a Prometheus knows: names with
 * samples, metric families its targets declare (a labelled counter is declared by its HELP and
 * TYPE lines from the start but has no sample before its first event: the relay's rejections,
 * the cache's Redis errors), names its recording rules record (a ratio of errors has none while
 * nothing fails) and the ALERTS series Prometheus writes for its alerting rules. Pure: takes
 * what the Prometheus API answered.
 */

/** What one Prometheus answered about names. */
export interface KnownNames {
  /** `/api/v1/label/__name__/values`. */
  readonly sampled: Iterable<string>;
  /** The metric families of `/api/v1/metadata` (a histogram's without `_bucket`). */
  readonly declared: Iterable<string>;
  /** The names the loaded recording rules record. */
  readonly recorded: Iterable<string>;
}

/** Series Prometheus writes itself while it has alerting rules. */
export const ALERT_SERIES: readonly string[] = ['ALERTS', 'ALERTS_FOR_STATE'];

/** The family a sample name belongs to: a histogram's or summary's parts name their family. */
function familiesOf(name: string): string[] {
  const part = /^(.+)_(bucket|count|sum|total)$/.exec(name);
  // A counter's family keeps `_total` in the text format and drops it in OpenMetrics.
  return part ? [name, part[1] ?? name] : [name];
}

/** The names of `needed` that `known` does not account for, sorted, each once. */
export function unknownSeriesNames(needed: readonly string[], known: KnownNames): string[] {
  const sampled = new Set([...known.sampled, ...known.recorded, ...ALERT_SERIES]);
  const declared = new Set(known.declared);
  const unknown = needed.filter(
    (name) => !sampled.has(name) && !familiesOf(name).some((family) => declared.has(family)),
  );
  return [...new Set(unknown)].sort();
}
