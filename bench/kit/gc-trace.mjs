// What V8 printed with --trace-gc-nvp: one line per collection with `key=value` fields. Summed
// per kind of collection (`s` scavenge, `mc` mark-compact, `mmc` minor mark-compact), for the
// GC watchers of the relay and the render service.

const field = (line, key) => Number(new RegExp(`(?:^|\\s)${key}=([\\d.]+)`).exec(line)?.[1] ?? 0);

const noCollections = () => ({ count: 0, pauseMs: 0, promoted: 0, survived: 0, allocated: 0 });

/**
 * `{ kinds: { <kind>: { count, pauseMs, promoted, survived, allocated } }, pauseMs, promoted,
 * newSpaceCapacity }`: collections by kind with their pause (ms) and bytes promoted, survived in
 * the young generation and allocated since the one before; their pause and promoted bytes over
 * all kinds; the young generation's capacity at the last scavenge (bytes).
 */
export function gcTotals(text) {
  const kinds = {};
  let newSpaceCapacity = 0;
  for (const line of text.split('\n')) {
    const kind = /(?:^|\s)gc=(\w+)/.exec(line)?.[1];
    if (!kind) continue;
    const entry = (kinds[kind] ??= noCollections());
    entry.count += 1;
    entry.pauseMs += field(line, 'pause');
    entry.promoted += field(line, 'promoted');
    entry.survived += field(line, 'new_space_survived');
    entry.allocated += field(line, 'allocated');
    if (kind === 's') newSpaceCapacity = field(line, 'new_space_capacity');
  }
  const all = Object.values(kinds);
  const sum = (key) => all.reduce((total, entry) => total + entry[key], 0);
  return { kinds, pauseMs: sum('pauseMs'), promoted: sum('promoted'), newSpaceCapacity };
}

/** The collections of `kind` in `gcTotals(…)`, all zero when there were none. */
export const collectionsOf = (totals, kind) => totals.kinds[kind] ?? noCollections();

/** `{ <kind>: count }` of `gcTotals(…)`, for a one-line report. */
export const countsByKind = (totals) =>
  Object.fromEntries(Object.entries(totals.kinds).map(([kind, { count }]) => [kind, count]));
