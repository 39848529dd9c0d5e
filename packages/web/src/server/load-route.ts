/**
 * Starts the loaders of a route's segments concurrently (a layout never waits for its parent)
 * and exposes each as a promise of its SegmentState.
 */
import type { SegmentDefinition } from '../routes/route-types.js';
import type { DeferredOutcome } from '../render/segment-outcome.js';
import type { SegmentSource, SegmentState } from '../render/segment-source.js';
import { fulfilled, track } from '../render/tracked-promise.js';
import {
  runLoader,
  type LoadedSegment,
  type LoaderErrorReporter,
  type LoaderInput,
} from './run-loader.js';
import type { SegmentCache } from './segment-cache.js';

/** Where cached results may come from for this request. */
export interface RouteCacheContext {
  readonly cache: SegmentCache;
  readonly build: string;
  readonly prefetch: boolean;
}

/** The loaders of one request. */
export interface RouteLoad {
  readonly loaded: ReadonlyMap<string, Promise<LoadedSegment>>;
  /**
   * A SegmentSource over these loads, for rendering. Each segment's promise is made once and
   * tracked, so React reads it synchronously once it has settled; segments in `settled` (loads
   * the caller has awaited) are fulfilled from the start, so rendering them never suspends.
   */
  source(emitScripts: boolean, settled?: readonly LoadedSegment[]): SegmentSource;
}

/** A segment that is not loaded but whose outcome is fixed (the 404 page of an unmatched URL). */
export interface FixedSegment {
  readonly id: string;
  readonly state: SegmentState;
}

/** What one request loads: the route's segments, which of them, and how. */
export interface RouteLoadPlan<Services> {
  readonly segments: readonly SegmentDefinition<Services>[];
  /** Loaders run for `segments[from..until)`. */
  readonly from: number;
  readonly until: number;
  /** Answered as given instead of loaded. */
  readonly fixed: readonly FixedSegment[];
  readonly input: LoaderInput<Services>;
  readonly report: LoaderErrorReporter;
  /** Undefined: no cache, every loader runs. */
  readonly caching: RouteCacheContext | undefined;
}

/** Runs the loaders of `plan.segments[from..until)`. */
export function loadRoute<Services>(plan: RouteLoadPlan<Services>): RouteLoad {
  const { input, report, caching } = plan;
  const loaded = new Map<string, Promise<LoadedSegment>>();
  for (const definition of plan.segments.slice(plan.from, plan.until)) {
    const load = () => runLoader(definition, input, report);
    // Segments without a loader have nothing worth caching.
    const cached =
      caching && definition.loader
        ? caching.cache.resolve(
            {
              build: caching.build,
              segmentId: definition.id,
              params: input.params,
              search: input.search,
              prefetch: caching.prefetch,
            },
            load,
          )
        : load();
    loaded.set(definition.id, cached);
  }
  for (const entry of plan.fixed)
    loaded.set(entry.id, Promise.resolve({ id: entry.id, ...entry.state, deferred: new Map() }));

  const missing = (id: string) => Promise.reject(new Error(`segment "${id}" was not loaded`));
  return {
    loaded,
    source(emitScripts, settled = []) {
      const states = new Map<string, Promise<SegmentState>>();
      for (const segment of settled) states.set(segment.id, fulfilled(toState(segment)));
      const known = new Map(settled.map((segment) => [segment.id, segment]));
      return {
        emitScripts,
        segment(id) {
          let state = states.get(id);
          if (!state) {
            state = track(loaded.get(id)?.then(toState) ?? missing(id));
            states.set(id, state);
          }
          return state;
        },
        deferred(id, key) {
          const segment = known.get(id);
          // A settled segment without that key: answer at once rather than suspend.
          if (segment && !segment.deferred.has(key)) return fulfilled(missingOutcome(key));
          return (
            loaded.get(id)?.then((s) => s.deferred.get(key) ?? missingOutcome(key)) ?? missing(id)
          );
        },
      };
    },
  };
}

function toState(segment: LoadedSegment): SegmentState {
  return {
    key: segment.key,
    tags: segment.tags,
    private: segment.private,
    outcome: segment.outcome,
  };
}

function missingOutcome(key: string): DeferredOutcome {
  return { status: 'error', digest: 'missing', message: `No deferred value "${key}"` };
}
