/**
 * Compiles a segment tree into an ordered list of routes (root-to-leaf chains ending in a page)
 * and matches URLs against it. Pure: no I/O.
 */
import type { SegmentDefinition } from './route-types.js';

type PatternPart =
  | { kind: 'static'; value: string }
  | { kind: 'param'; name: string }
  | { kind: 'rest'; name: string };

/** One matchable route: the chain of segments from a root layout to a page. */
export interface CompiledRoute<Services = unknown> {
  /** The page's id; also the route's id. */
  readonly id: string;
  /** The full pattern, e.g. /bench/items/:id (for telemetry names). */
  readonly pattern: string;
  readonly segments: readonly SegmentDefinition<Services>[];
  readonly parts: readonly PatternPart[];
}

/** The compiled application. */
export interface RouteTable<Services = unknown> {
  readonly routes: readonly CompiledRoute<Services>[];
  readonly byId: ReadonlyMap<string, SegmentDefinition<Services>>;
}

/** A URL matched to a route. */
export interface RouteMatch<Services = unknown> {
  readonly route: CompiledRoute<Services>;
  readonly params: Readonly<Record<string, string>>;
}

const SEGMENT_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function parsePattern(path: string): PatternPart[] {
  return path
    .split('/')
    .filter((part) => part !== '')
    .map((part) => {
      if (part.startsWith(':')) return { kind: 'param', name: part.slice(1) };
      if (part.startsWith('*')) return { kind: 'rest', name: part.slice(1) || 'rest' };
      return { kind: 'static', value: part };
    });
}

function specificity(route: { parts: readonly PatternPart[] }): number[] {
  // Static parts beat params, params beat rest; longer beats shorter at equal rank.
  return route.parts.map((p) => (p.kind === 'static' ? 3 : p.kind === 'param' ? 2 : 1));
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (b[i] ?? 0) - (a[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/** Validates the tree (unique ids, root layouts, pages as leaves) and compiles it. */
export function createRouteTable<Services>(
  roots: readonly SegmentDefinition<Services>[],
): RouteTable<Services> {
  const byId = new Map<string, SegmentDefinition<Services>>();
  const routes: CompiledRoute<Services>[] = [];

  const visit = (
    node: SegmentDefinition<Services>,
    chain: SegmentDefinition<Services>[],
    parts: PatternPart[],
  ) => {
    if (!SEGMENT_ID.test(node.id))
      throw new Error(`Segment id "${node.id}" must match ${SEGMENT_ID}`);
    if (byId.has(node.id)) throw new Error(`Segment id "${node.id}" is used twice`);
    if (node.id === 'not-found')
      throw new Error('Segment id "not-found" is reserved for unmatched URLs');
    byId.set(node.id, node);
    const nextChain = [...chain, node];
    const nextParts = [...parts, ...parsePattern(node.path)];
    if (node.kind === 'page') {
      if (node.children?.length) throw new Error(`Page "${node.id}" cannot have children`);
      const pattern = `/${nextParts.map((p) => (p.kind === 'static' ? p.value : p.kind === 'param' ? `:${p.name}` : `*${p.name}`)).join('/')}`;
      routes.push({ id: node.id, pattern, segments: nextChain, parts: nextParts });
      return;
    }
    for (const child of node.children ?? []) visit(child, nextChain, nextParts);
  };
  for (const root of roots) {
    if (root.kind !== 'layout' || !root.root)
      throw new Error(`Top-level segment "${root.id}" must be a root layout`);
    visit(root, [], []);
  }
  routes.sort((a, b) => compare(specificity(a), specificity(b)));
  return { routes, byId };
}

/** Finds the route for a pathname (percent-decoded params), or null. */
export function matchRoute<Services>(
  table: RouteTable<Services>,
  pathname: string,
): RouteMatch<Services> | null {
  const parts = pathname.split('/').filter((part) => part !== '');
  for (const route of table.routes) {
    const params: Record<string, string> = {};
    let matched = true;
    let index = 0;
    for (const part of route.parts) {
      if (part.kind === 'rest') {
        params[part.name] = parts.slice(index).map(safeDecode).join('/');
        index = parts.length;
        break;
      }
      const value = parts[index];
      if (value === undefined) {
        matched = false;
        break;
      }
      if (
        part.kind === 'static'
          ? part.value !== value
          : (params[part.name] = safeDecode(value)) === ''
      ) {
        matched = false;
        break;
      }
      index += 1;
    }
    if (matched && index === parts.length) return { route, params };
  }
  return null;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
