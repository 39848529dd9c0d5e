/**
 * The not-found page renders under the root layout of the page at `/`, or the one mounted at `/`,
 * or the table's only root layout; a table that leaves it open says why.
 */
import { describe, expect, it } from 'vitest';
import { notFoundRootOf } from './not-found-root.js';
import { createRouteTable } from './route-table.js';
import { segment, type SegmentDefinition } from './route-types.js';

const page = (id: string, path: string) =>
  segment({ id, path, kind: 'page', component: () => null });
const root = (id: string, path: string, children: SegmentDefinition[]) =>
  segment({ id, path, kind: 'layout', root: true, component: () => null, children });

const rootId = (roots: SegmentDefinition[]) => {
  const answer = notFoundRootOf(createRouteTable(roots));
  return 'root' in answer ? answer.root.id : answer.problem;
};

describe('the not-found root layout', () => {
  it('is the root layout of the page at "/", whatever the order of the roots', () => {
    expect(
      rootId([root('bench', 'bench', [page('b', '')]), root('shop', '', [page('home', '')])]),
    ).toBe('shop');
    expect(
      rootId([root('shop', '', [page('home', '')]), root('account', 'account', [page('me', '')])]),
    ).toBe('shop');
  });

  it('is the root layout mounted at "/" when no page serves "/", or else the only one', () => {
    expect(
      rootId([
        root('account', 'account', [page('me', '')]),
        root('shop', '', [page('items', 'items')]),
      ]),
    ).toBe('shop');
    expect(rootId([root('docs', 'docs', [page('intro', '')])])).toBe('docs');
  });

  it('is refused, with the roots named, when several roots and no page at "/" leave it open', () => {
    expect(rootId([root('a', 'a', [page('a1', '')]), root('b', 'b', [page('b1', '')])])).toBe(
      'no page serves "/" and 2 root layouts could render not-found pages (a, b): add a page at "/", whose root layout then does',
    );
    expect(rootId([])).toBe('it has no page, so no root layout renders not-found pages');
  });
});
