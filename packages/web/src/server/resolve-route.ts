/**
 * Turns a URL into the segments to render: a matched route, or for an unknown URL the
 * not-found root layout (see not-found-root.ts) with a page whose outcome is fixed to not-found.
 */
import { matchRoute, type CompiledRoute } from '../routes/route-table.js';
import { NOT_FOUND_PAGE, NOT_FOUND_PAGE_ID } from '../routes/not-found-page.js';
import { notFoundRootOf } from '../routes/not-found-root.js';
import type { SegmentDefinition } from '../routes/route-types.js';
import type { FixedSegment } from './load-route.js';
import type { WebRuntime } from './web-runtime.js';

/** What to render for a URL. */
export interface ResolvedRoute<Services> {
  readonly routeId: string;
  readonly pattern: string;
  readonly params: Readonly<Record<string, string>>;
  readonly segments: readonly SegmentDefinition<Services>[];
  readonly fixed: readonly FixedSegment[];
  readonly matched: boolean;
}

/** Resolves `pathname`, falling back to the not-found page. */
export function resolveRoute<Services>(
  runtime: WebRuntime<Services>,
  pathname: string,
): ResolvedRoute<Services> {
  const match = matchRoute(runtime.table, pathname);
  if (match) return fromRoute(match.route, match.params);
  const notFound = notFoundRootOf(runtime.table);
  if ('problem' in notFound) throw new Error(`No not-found root layout: ${notFound.problem}`);
  const root = notFound.root;
  const page = NOT_FOUND_PAGE as SegmentDefinition<Services>;
  return {
    routeId: NOT_FOUND_PAGE_ID,
    pattern: '/404',
    params: {},
    segments: [root, page],
    fixed: [
      {
        id: NOT_FOUND_PAGE_ID,
        state: {
          key: NOT_FOUND_PAGE_ID,
          tags: [],
          private: false,
          outcome: { status: 'not-found' },
        },
      },
    ],
    matched: false,
  };
}

function fromRoute<Services>(
  route: CompiledRoute<Services>,
  params: Readonly<Record<string, string>>,
): ResolvedRoute<Services> {
  return {
    routeId: route.id,
    pattern: route.pattern,
    params,
    segments: route.segments,
    fixed: [],
    matched: true,
  };
}

export { firstLoadingIndex } from '../routes/loading-boundary.js';
