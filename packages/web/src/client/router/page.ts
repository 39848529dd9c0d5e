/**
 * A committed page: the route's segments and a source that serves kept segments from the
 * previous page and new ones from the payload as it streams in.
 */
import type { RouteRecord } from '../../protocol/payload-records.js';
import type { DeferredOutcome } from '../../render/segment-outcome.js';
import type { SegmentSource, SegmentState } from '../../render/segment-source.js';
import { fulfilled, isFulfilled, track } from '../../render/tracked-promise.js';
import { NOT_FOUND_PAGE, NOT_FOUND_PAGE_ID } from '../../routes/not-found-page.js';
import type { RouteTable } from '../../routes/route-table.js';
import type { SegmentDefinition } from '../../routes/route-types.js';

/** What the router renders and remembers for back and forward. */
export interface Page {
  readonly url: string;
  readonly routeId: string;
  readonly root: string;
  readonly params: Readonly<Record<string, string>>;
  readonly segments: readonly SegmentDefinition<never>[];
  readonly source: SegmentSource;
  /**
   * Per segment, the branch it renders in: '' for an ordinary one, a token for a segment first
   * rendered ahead of its navigation (hidden), so the navigation reveals that render instead of
   * repeating it. Kept and same-id segments keep their token; see render/segment-tree.
   */
  readonly branches: readonly string[];
  /** Index of the first segment this page did not take from the page before it. */
  readonly from: number;
  /** Keys of the segments whose data has arrived, root first, up to the first missing one. */
  keys(): string[];
}

/** Resolves a segment id against the table (the synthetic not-found page included). */
export function segmentById<S>(
  table: RouteTable<S>,
  id: string,
): SegmentDefinition<never> | undefined {
  return (id === NOT_FOUND_PAGE_ID ? NOT_FOUND_PAGE : table.byId.get(id)) as
    SegmentDefinition<never> | undefined;
}

/** A page over a source whose resolved states it records as they arrive. */
export function pageFromSource(
  view: {
    url: string;
    routeId: string;
    root: string;
    params: Readonly<Record<string, string>>;
    segments: readonly SegmentDefinition<never>[];
    branches?: readonly string[];
    from?: number;
  },
  source: SegmentSource,
): Page {
  const states = new Map<string, SegmentState>();
  // One promise per segment and per deferred value, so React's use() sees the same thenable
  // on every render (and renders at once when it has already settled).
  const segmentPromises = new Map<string, Promise<SegmentState>>();
  const deferredPromises = new Map<string, Promise<DeferredOutcome>>();
  const recorded: SegmentSource = {
    emitScripts: source.emitScripts,
    segment(id) {
      let promise = segmentPromises.get(id);
      if (!promise) {
        const settled = source.segment(id);
        // Already here (a kept segment, a prefetched answer): React renders it without suspending.
        if (isFulfilled(settled)) {
          states.set(id, settled.value);
          promise = fulfilled(settled.value);
        } else
          promise = track(
            settled.then((state) => {
              states.set(id, state);
              return state;
            }),
          );
        segmentPromises.set(id, promise);
      }
      return promise;
    },
    deferred(id, key) {
      const name = `${id} ${key}`;
      let promise = deferredPromises.get(name);
      if (!promise) deferredPromises.set(name, (promise = track(source.deferred(id, key))));
      return promise;
    },
  };
  // Ask for every segment now, so keys() knows them without waiting for React to render.
  for (const segment of view.segments) void recorded.segment(segment.id).catch(() => undefined);
  return {
    ...view,
    branches: view.branches ?? view.segments.map(() => ''),
    from: view.from ?? 0,
    source: recorded,
    keys() {
      const keys: string[] = [];
      for (const segment of view.segments) {
        const state = states.get(segment.id);
        if (!state || state.outcome.status !== 'ok') break;
        keys.push(state.key);
      }
      return keys;
    },
  };
}

let nextBranchToken = 0;

/**
 * The page a payload answer describes, reusing the previous page's kept segments. A
 * `speculative` page is rendered hidden beside the previous one before its navigation, so its
 * new segments get branch tokens of their own.
 */
export function createPage<S>(
  table: RouteTable<S>,
  route: RouteRecord,
  payload: { segment(id: string): Promise<SegmentState>; deferred: SegmentSource['deferred'] },
  previous: Page,
  url: string,
  options: { speculative?: boolean } = {},
): Page {
  const segments = route.segments
    .map((ref) => segmentById(table, ref.id))
    .filter((s) => s !== undefined);
  const token = options.speculative ? `s${(nextBranchToken += 1)}` : '';
  // A segment that stays where it was (kept, or the same segment with new data) keeps its
  // branch, so React updates it in place as before.
  const branches = segments.map((segment, index) =>
    index < route.from || (!token && previous.segments[index]?.id === segment.id)
      ? (previous.branches[index] ?? '')
      : token,
  );
  const kept = new Set(route.segments.slice(0, route.from).map((ref) => ref.id));
  const source: SegmentSource = {
    emitScripts: false,
    segment: (id) => (kept.has(id) ? previous.source.segment(id) : payload.segment(id)),
    deferred: (id, key) =>
      kept.has(id) ? previous.source.deferred(id, key) : payload.deferred(id, key),
  };
  return pageFromSource(
    {
      url,
      routeId: route.route,
      root: route.root,
      params: route.params,
      segments,
      branches,
      from: route.from,
    },
    source,
  );
}
