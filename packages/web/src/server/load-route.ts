/**
 * Starts the loaders of a route's segments concurrently (a layout never waits for its parent)
 * and exposes each as a promise of its SegmentState.
 */
import type { SegmentDefinition } from '../routes/route-types.js';
import type { DeferredOutcome } from '../render/segment-outcome.js';
import type { SegmentSource, SegmentState } from '../render/segment-source.js';
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
  /** A SegmentSource over these loads, for rendering. */
  source(emitScripts: boolean): SegmentSource;
}

/** A segment that is not loaded but whose outcome is fixed (the 404 page of an unmatched URL). */
export interface FixedSegment {
  readonly id: string;
  readonly state: SegmentState;
}

/** Runs the loaders of `segments[from..until)`. */
export function loadRoute<Services>(
  segments: readonly SegmentDefinition<Services>[],
  input: LoaderInput<Services>,
  report: LoaderErrorReporter,
  range: { from: number; until: number } = { from: 0, until: segments.length },
  fixed: readonly FixedSegment[] = [],
  caching?: RouteCacheContext,
): RouteLoad {
  const loaded = new Map<string, Promise<LoadedSegment>>();
  for (const definition of segments.slice(range.from, range.until)) {
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
  for (const entry of fixed)
    loaded.set(entry.id, Promise.resolve({ id: entry.id, ...entry.state, deferred: new Map() }));

  const missing = (id: string) => Promise.reject(new Error(`segment "${id}" was not loaded`));
  return {
    loaded,
    source(emitScripts) {
      return {
        emitScripts,
        segment: (id) => loaded.get(id)?.then(toState) ?? missing(id),
        deferred: (id, key) =>
          loaded.get(id)?.then((segment) => segment.deferred.get(key) ?? missingDeferred(key)) ??
          missing(id),
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

function missingDeferred(key: string): Promise<DeferredOutcome> {
  return Promise.resolve({
    status: 'error',
    digest: 'missing',
    message: `No deferred value "${key}"`,
  });
}
