// What V8 printed with --trace-gc-nvp: one line per collection with `key=value` fields. Summed
// per kind of collection (`s` scavenge, `mc` mark-compact, `mmc` minor mark-compact), for the
// GC watchers of the relay and the render service.

const field = (line, key) => Number(new RegExp(`(?:^|\\s)${key}=([\\d.]+)`).exec(line)?.[1] ?? 0);

/**
 * `{ kinds: { <kind>: { count, pauseMs, promoted, survived, allocated } }, pauseMs, promoted,
 * newSpaceCapacity }`: collections by kind with their pause (ms) and bytes promoted, survived in
 * the young generation and allocated since the one before; the young generation's capacity at
 * the last scavenge (bytes).
 */
export function gcTotals(text) {
  const totals = { kinds: {}, pauseMs: 0, promoted: 0, newSpaceCapacity: 0 };
  for (const line of text.split('\n')) {
    const kind = /(?:^|\s)gc=(\w+)/.exec(line)?.[1];
    if (!kind) continue;
    const entry = (totals.kinds[kind] ??= {
      count: 0,
      pauseMs: 0,
      promoted: 0,
      survived: 0,
      allocated: 0,
    });
    entry.count += 1;
    entry.pauseMs += field(line, 'pause');
    entry.promoted += field(line, 'promoted');
    entry.survived += field(line, 'new_space_survived');
    entry.allocated += field(line, 'allocated');
    totals.pauseMs += field(line, 'pause');
    totals.promoted += field(line, 'promoted');
    if (kind === 's') totals.newSpaceCapacity = field(line, 'new_space_capacity');
  }
  return totals;
}

/** `{ <kind>: count }` of `gcTotals(…)`, for a one-line report. */
export const countsByKind = (totals) =>
  Object.fromEntries(Object.entries(totals.kinds).map(([kind, { count }]) => [kind, count]));
