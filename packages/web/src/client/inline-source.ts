/**
 * A SegmentSource fed by the inline scripts of a server-rendered page: each script pushes
 * `['s', segmentId, state]` or `['d', segmentId, key, outcome]` into `self.__strata`, possibly
 * before this code runs; later pushes resolve promises React is waiting on. Lists of like
 * records arrive packed (protocol/row-tables.ts) and are unpacked here.
 */
import { unpackRows } from '../protocol/row-tables.js';
import type { DeferredOutcome } from '../render/segment-outcome.js';
import type { SegmentSource, SegmentState } from '../render/segment-source.js';

type Entry = readonly ['s', string, SegmentState] | readonly ['d', string, string, DeferredOutcome];

interface Slot<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

function slot<T>(): Slot<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Reads what the server inlined and keeps listening for more. */
export function createInlineSource(
  queue: { push(...entries: Entry[]): number } & Entry[],
): SegmentSource & { states(): Map<string, SegmentState> } {
  const segments = new Map<string, Slot<SegmentState>>();
  const deferred = new Map<string, Slot<DeferredOutcome>>();
  const states = new Map<string, SegmentState>();
  const segmentSlot = (id: string) => segments.get(id) ?? segments.set(id, slot()).get(id)!;
  const deferredSlot = (id: string, key: string) =>
    deferred.get(`${id}\u0000${key}`) ??
    deferred.set(`${id}\u0000${key}`, slot()).get(`${id}\u0000${key}`)!;

  const accept = (packed: Entry) => {
    const entry = unpackRows(packed) as Entry;
    if (entry[0] === 's') {
      states.set(entry[1], entry[2]);
      segmentSlot(entry[1]).resolve(entry[2]);
    } else deferredSlot(entry[1], entry[2]).resolve(entry[3]);
  };
  for (const entry of queue) accept(entry);
  queue.push = (...entries: Entry[]) => {
    entries.forEach(accept);
    return 0;
  };
  return {
    emitScripts: true,
    segment: (id) => segmentSlot(id).promise,
    deferred: (id, key) => deferredSlot(id, key).promise,
    states: () => states,
  };
}
