/**
 * Runs one segment's loader with a tracking context: which params and search values it read
 * (its key), whether it touched cookies or headers (private), the tags it named, its deferred
 * values. Errors become outcomes; nothing here throws.
 */
import { segmentKey } from '../protocol/tree-header.js';
import type { Deferred, LoaderContext, SegmentDefinition } from '../routes/route-types.js';
import type { DeferredOutcome, SegmentOutcome } from '../render/segment-outcome.js';
import { NotFoundSignal, RedirectSignal } from './control-flow.js';
import { errorDigest } from './error-digest.js';

/** The request as a loader may see it. */
export interface LoaderInput<Services> {
  readonly params: Readonly<Record<string, string>>;
  readonly search: URLSearchParams;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly cookies: Readonly<Record<string, string>>;
  readonly services: Services;
  readonly signal: AbortSignal;
}

/** A loader's result and what it read. */
export interface LoadedSegment {
  readonly id: string;
  readonly key: string;
  readonly tags: readonly string[];
  readonly private: boolean;
  readonly outcome: SegmentOutcome;
  /** Deferred values by key, settled as outcomes. */
  readonly deferred: ReadonlyMap<string, Promise<DeferredOutcome>>;
  /** The error behind an `error` outcome, for logging. */
  readonly cause?: unknown;
}

/** Called for every unexpected loader or deferred failure, with its digest. */
export type LoaderErrorReporter = (error: unknown, digest: string, segmentId: string) => void;

const NOT_FOUND: SegmentOutcome = { status: 'not-found' };

/** Runs the loader (or none) of `segment`. */
export async function runLoader<Services>(
  segment: SegmentDefinition<Services>,
  input: LoaderInput<Services>,
  report: LoaderErrorReporter,
): Promise<LoadedSegment> {
  const readParams: Record<string, string> = {};
  const readSearch: Record<string, string> = {};
  const tags = new Set<string>();
  const deferred = new Map<string, Promise<DeferredOutcome>>();
  let isPrivate = false;

  const settleDeferred = (key: string, promise: Promise<unknown>): Promise<DeferredOutcome> =>
    promise.then(
      (value): DeferredOutcome => ({ status: 'ok', value }),
      (error: unknown): DeferredOutcome => {
        const digest = errorDigest(error);
        // A value that failed because the client went away is not a server error.
        if (!input.signal.aborted) report(error, digest, segment.id);
        return { status: 'error', digest, message: 'A server error occurred.' };
      },
    );

  const context: LoaderContext<Services> = {
    params: new Proxy(input.params, {
      get(target, name) {
        if (typeof name === 'string' && name in target) readParams[name] = target[name] ?? '';
        return typeof name === 'string' ? target[name] : undefined;
      },
    }),
    search: {
      get(name) {
        const value = input.search.get(name);
        readSearch[name] = value ?? '';
        return value;
      },
    },
    request: {
      header(name) {
        isPrivate = true;
        const value = input.headers[name.toLowerCase()];
        return Array.isArray(value) ? value.join(', ') : value;
      },
      cookie(name) {
        isPrivate = true;
        return input.cookies[name];
      },
    },
    services: input.services,
    signal: input.signal,
    tag: (...names) => names.forEach((name) => tags.add(name)),
    defer<T>(key: string, promise: Promise<T>): Deferred<T> {
      if (deferred.has(key))
        throw new Error(`Deferred key "${key}" is used twice in segment "${segment.id}"`);
      deferred.set(key, settleDeferred(key, promise));
      return { kind: 'deferred', key, promise };
    },
    notFound: () => {
      throw new NotFoundSignal();
    },
    redirect: (location, status = 307) => {
      throw new RedirectSignal(location, status);
    },
  };

  const finish = (outcome: SegmentOutcome, cause?: unknown): LoadedSegment => ({
    id: segment.id,
    key: segmentKey(segment.id, { params: readParams, search: readSearch }),
    tags: [...tags],
    private: isPrivate,
    outcome,
    deferred,
    ...(cause !== undefined && { cause }),
  });

  if (!segment.loader) return finish({ status: 'ok', data: null, deferred: [] });
  try {
    const data = await segment.loader(context);
    return finish({ status: 'ok', data: replaceDeferreds(data), deferred: [...deferred.keys()] });
  } catch (error) {
    if (error instanceof NotFoundSignal) return finish(NOT_FOUND);
    if (error instanceof RedirectSignal)
      return finish({ status: 'redirect', location: error.location, httpStatus: error.status });
    const digest = errorDigest(error);
    // Work cancelled because the client went away is not a server error: nobody sees it.
    if (!input.signal.aborted) report(error, digest, segment.id);
    return finish({ status: 'error', digest, message: 'A server error occurred.' }, error);
  }
}

/** Deferreds in the data travel as `{ $deferred: key }` markers; the values follow separately. */
function replaceDeferreds(data: unknown): unknown {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data)) {
    const isDeferred =
      typeof value === 'object' &&
      value !== null &&
      (value as { kind?: unknown }).kind === 'deferred';
    out[name] = isDeferred ? { $deferred: (value as Deferred<unknown>).key } : value;
  }
  return out;
}
