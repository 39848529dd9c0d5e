/**
 * GET of a page as a payload (client navigation and prefetch): answers only the segments that
 * differ from the browser's tree, as newline-delimited records, each streamed as soon as its
 * loader settles. An `auto` prefetch stops at the first loading boundary, or at the first segment
 * with deferred values (it carries none); `full` sends all.
 * When no segment in the answer has a loading view and no deferred value follows, the browser
 * can use nothing before the last record anyway: the records are sent together, as one Buffer
 * with a Content-Length (one write instead of a chunked stream).
 */
import { PassThrough } from 'node:stream';
import {
  HEADERS,
  PAYLOAD_CONTENT_TYPE,
  PAYLOAD_QUERY_PARAM,
  PAYLOAD_VARY,
} from '../protocol/constants.js';
import { payloadHash } from '../protocol/payload-hash.js';
import { encodeRecord } from '../protocol/payload-records.js';
import { parseTreeHeader, readKeyNames } from '../protocol/tree-header.js';
import { sameSitePath } from './same-site-location.js';
import { loadPage, routeOf } from './load-page.js';
import { firstLoadingIndex } from './resolve-route.js';
import { reusableCount } from './reuse-segments.js';
import type { LoadedSegment } from './run-loader.js';
import type { RenderRequest, RenderResponse, WebRuntime } from './web-runtime.js';

/** Prefetch kinds a request may ask for. */
export type PrefetchKind = 'auto' | 'full';

function header<S>(request: RenderRequest<S>, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function problem(status: number, message: string, buildId: string): RenderResponse {
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      [HEADERS.build]: buildId,
      vary: PAYLOAD_VARY,
      'cache-control': 'no-store',
    },
    body: JSON.stringify({
      error: { code: status === 431 ? 'TREE_TOO_LARGE' : 'BAD_PAYLOAD_REQUEST', message },
    }),
  };
}

/** Renders a payload answer for `request`. */
export async function renderPayload<Services>(
  runtime: WebRuntime<Services>,
  request: RenderRequest<Services>,
): Promise<RenderResponse> {
  const tree = header(request, HEADERS.tree) ?? '';
  const rawPrefetch = header(request, HEADERS.prefetch);
  if (rawPrefetch !== undefined && rawPrefetch !== 'auto' && rawPrefetch !== 'full')
    return problem(400, 'Strata-Prefetch must be "auto" or "full"', runtime.buildId);
  const parsedTree = parseTreeHeader(tree);
  if (!parsedTree.ok)
    return problem(
      parsedTree.error.kind === 'tooLarge' ? 431 : 400,
      parsedTree.error.message,
      runtime.buildId,
    );

  // The hash in the URL must describe the headers, or a shared cache could serve one tree's
  // answer to another: send the client to the right URL instead.
  const expected = payloadHash({ tree, prefetch: rawPrefetch });
  if (request.url.searchParams.get(PAYLOAD_QUERY_PARAM) !== expected) {
    const fixed = new URL(request.url);
    fixed.searchParams.set(PAYLOAD_QUERY_PARAM, expected);
    return {
      status: 307,
      headers: {
        location: sameSitePath(fixed),
        [HEADERS.build]: runtime.buildId,
        vary: PAYLOAD_VARY,
        'cache-control': 'no-store',
      },
      body: '',
    };
  }

  return payloadFor(runtime, request, { keys: parsedTree.keys, prefetch: rawPrefetch });
}

/** The payload for `request.url` given the browser's keys; `prelude` records go first. */
export async function payloadFor<Services>(
  runtime: WebRuntime<Services>,
  request: RenderRequest<Services>,
  options: {
    keys: readonly string[];
    prefetch?: PrefetchKind | undefined;
    prelude?: readonly string[];
    status?: number;
  },
): Promise<RenderResponse> {
  const { keys, prefetch } = options;
  const search = new URLSearchParams(request.url.searchParams);
  search.delete(PAYLOAD_QUERY_PARAM);
  const route = routeOf(runtime, request);
  const ids = route.segments.map((s) => s.id);
  const first = keys[0];
  const sameRoot = first !== undefined && readKeyNames(first)?.id === ids[0];
  const from = sameRoot ? reusableCount(ids, keys, { params: route.params, search }) : 0;
  const until =
    prefetch === 'auto'
      ? Math.max(from, firstLoadingIndex(route.segments.slice(from)) + from)
      : ids.length;
  const load = loadPage(runtime, request, {
    route,
    search,
    from,
    until,
    prefetch: prefetch !== undefined,
  });

  // The route record, answering segments [from, answeredUntil).
  const headUntil = (answeredUntil: number) =>
    (options.prelude ?? []).join('') +
    encodeRecord({
      type: 'route',
      build: runtime.buildId,
      route: route.routeId,
      pattern: route.pattern,
      root: ids[0] ?? '',
      params: route.params,
      segments: ids.map((id, index) => ({
        id,
        key: index < from ? (keys[index] ?? id) : '',
      })),
      from,
      until: answeredUntil,
    });
  const status = options.status ?? (route.matched ? 200 : 404);
  const headers = {
    'content-type': PAYLOAD_CONTENT_TYPE,
    [HEADERS.build]: runtime.buildId,
    vary: PAYLOAD_VARY,
    'cache-control': 'private, no-cache',
  };
  const withDeferred = prefetch !== 'auto';
  const answered = route.segments.slice(from, until);
  if (firstLoadingIndex(answered) === answered.length) {
    let segments = await Promise.all(load.loaded.values());
    // An auto prefetch carries no deferred value: it stops before the first segment that has
    // some, as at a loading view, so the navigation asks for the rest (values included).
    const firstDeferred = withDeferred ? -1 : segments.findIndex(hasDeferred);
    if (firstDeferred >= 0) segments = segments.slice(0, firstDeferred);
    if (!(withDeferred && segments.some(hasDeferred)))
      return {
        status,
        headers,
        body: Buffer.from(
          headUntil(firstDeferred >= 0 ? from + firstDeferred : until) +
            segments.map(segmentRecord).join('') +
            encodeRecord({ type: 'end' }),
        ),
      };
  }

  const body = new PassThrough();
  body.write(headUntil(until));
  void streamSegments([...load.loaded.values()], body, withDeferred);
  // Proxies such as nginx must pass each record on as it comes.
  return { status, headers: { ...headers, 'x-accel-buffering': 'no' }, body };
}

function hasDeferred(segment: LoadedSegment): boolean {
  return segment.outcome.status === 'ok' && segment.deferred.size > 0;
}

async function streamSegments(
  pending: Promise<LoadedSegment>[],
  body: PassThrough,
  withDeferred: boolean,
): Promise<void> {
  const deferredWrites: Promise<void>[] = [];
  await Promise.all(
    pending.map(async (promise) => {
      const segment = await promise;
      body.write(segmentRecord(segment));
      if (!withDeferred || segment.outcome.status !== 'ok') return;
      for (const [key, outcome] of segment.deferred)
        deferredWrites.push(
          outcome.then((settled) => {
            body.write(
              encodeRecord(
                settled.status === 'ok'
                  ? { type: 'deferred', segment: segment.id, key, value: settled.value }
                  : {
                      type: 'deferred',
                      segment: segment.id,
                      key,
                      error: { digest: settled.digest },
                    },
              ),
            );
          }),
        );
    }),
  );
  await Promise.all(deferredWrites);
  body.end(encodeRecord({ type: 'end' }));
}

function segmentRecord(segment: LoadedSegment): string {
  const outcome = segment.outcome;
  switch (outcome.status) {
    case 'ok':
      return encodeRecord({
        type: 'segment',
        id: segment.id,
        key: segment.key,
        data: outcome.data,
        tags: segment.tags,
        private: segment.private,
        deferred: outcome.deferred,
      });
    case 'error':
      return encodeRecord({ type: 'error', segment: segment.id, digest: outcome.digest });
    case 'not-found':
      return encodeRecord({ type: 'not-found', segment: segment.id });
    case 'redirect':
      return encodeRecord({
        type: 'redirect',
        location: outcome.location,
        status: outcome.httpStatus,
      });
  }
}
