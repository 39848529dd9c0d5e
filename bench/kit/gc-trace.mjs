// What V8 printed with --trace-gc-nvp: one line per collection, its fields as `key=value` words
// (Node 24's V8) or as a JSON object after `GC: ` (Node 26's), with the same names. Summed per
// kind of collection (`s` scavenge, `mc` mark-compact, `mmc` minor mark-compact), for the GC
// watchers of the relay and the render service.

/** The fields of one collection's line (`{ gc, pause, … }`), or undefined for any other line. */
function collectionOf(line) {
  const json = /GC: (\{.*\})\s*$/.exec(line)?.[1];
  if (json) return JSON.parse(json);
  const words = [...line.matchAll(/(?:^|\s)(\w+)=([\w.]+)/g)];
  const fields = Object.fromEntries(words.map(([, key, value]) => [key, value]));
  return fields.gc ? fields : undefined;
}

const numberOf = (collection, key) => Number(collection[key] ?? 0);

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
    const collection = collectionOf(line);
    if (!collection) continue;
    const kind = collection.gc;
    const entry = (kinds[kind] ??= noCollections());
    entry.count += 1;
    entry.pauseMs += numberOf(collection, 'pause');
    entry.promoted += numberOf(collection, 'promoted');
    entry.survived += numberOf(collection, 'new_space_survived');
    entry.allocated += numberOf(collection, 'allocated');
    if (kind === 's') newSpaceCapacity = numberOf(collection, 'new_space_capacity');
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
