/**
 * Which root layout renders the not-found page for URLs no route matches, read from the route
 * table: the root layout of the page that serves `/`; failing that, the one root layout mounted at
 * `/` (its path is ''); failing that, the table's only root layout. Pure: no I/O.
 */
import { matchRoute, type RouteTable } from './route-table.js';
import type { SegmentDefinition } from './route-types.js';

/** The not-found root, or why the table names none. */
export type NotFoundRoot<Services> =
  { readonly root: SegmentDefinition<Services> } | { readonly problem: string };

const found = new WeakMap<RouteTable<never>, NotFoundRoot<never>>();

/** The layout unknown URLs render under (computed once per table). */
export function notFoundRootOf<Services>(table: RouteTable<Services>): NotFoundRoot<Services> {
  const key = table as RouteTable<never>;
  let answer = found.get(key);
  if (!answer) {
    answer = pickRoot(table) as NotFoundRoot<never>;
    found.set(key, answer);
  }
  return answer as NotFoundRoot<Services>;
}

function pickRoot<Services>(table: RouteTable<Services>): NotFoundRoot<Services> {
  const home = matchRoute(table, '/')?.route.segments[0];
  if (home) return { root: home };
  const roots = [...new Set(table.routes.flatMap((route) => route.segments.slice(0, 1)))];
  const atSlash = roots.filter((root) => root.path === '');
  const candidates = atSlash.length > 0 ? atSlash : roots;
  const [only] = candidates;
  if (only && candidates.length === 1) return { root: only };
  if (!only) return { problem: 'it has no page, so no root layout renders not-found pages' };
  const ids = candidates.map((root) => root.id).join(', ');
  return {
    problem: `no page serves "/" and ${candidates.length} root layouts could render not-found pages (${ids}): add a page at "/", whose root layout then does`,
  };
}
