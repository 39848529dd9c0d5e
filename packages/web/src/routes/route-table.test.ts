import { describe, expect, it } from 'vitest';
import { createRouteTable, matchRoute } from './route-table.js';
import type { SegmentDefinition } from './route-types.js';

const page = (id: string, path: string): SegmentDefinition => ({
  id,
  path,
  kind: 'page',
  component: () => null,
});
const table = createRouteTable([
  {
    id: 'root',
    path: '',
    kind: 'layout',
    root: true,
    component: () => null,
    children: [
      page('home', ''),
      {
        id: 'items',
        path: 'items',
        kind: 'layout',
        component: () => null,
        children: [page('new', 'new'), page('item', ':id'), page('list', '')],
      },
      page('files', 'files/*path'),
    ],
  },
]);

describe('matchRoute', () => {
  it.each([
    ['/', 'home', {}],
    ['/items', 'list', {}],
    ['/items/', 'list', {}],
    ['/items/new', 'new', {}],
    ['/items/42', 'item', { id: '42' }],
    ['/items/a%20b', 'item', { id: 'a b' }],
    ['/files/a/b/c', 'files', { path: 'a/b/c' }],
  ])('matches %s to %s', (pathname, id, params) => {
    const match = matchRoute(table, pathname);
    expect(match?.route.id).toBe(id);
    expect(match?.params).toEqual(params);
  });

  it.each(['/nope', '/items/1/extra'])('does not match %s', (pathname) => {
    expect(matchRoute(table, pathname)).toBeNull();
  });

  it('exposes the full pattern and chain', () => {
    const match = matchRoute(table, '/items/7');
    expect(match?.route.pattern).toBe('/items/:id');
    expect(match?.route.segments.map((s) => s.id)).toEqual(['root', 'items', 'item']);
  });

  it('refuses duplicate ids, reserved ids and non-root top levels', () => {
    expect(() =>
      createRouteTable([
        {
          id: 'a',
          path: '',
          kind: 'layout',
          root: true,
          component: () => null,
          children: [page('a', 'x')],
        },
      ]),
    ).toThrow(/used twice/);
    expect(() =>
      createRouteTable([
        {
          id: 'a',
          path: '',
          kind: 'layout',
          root: true,
          component: () => null,
          children: [page('not-found', 'x')],
        },
      ]),
    ).toThrow(/reserved/);
    expect(() =>
      createRouteTable([{ id: 'a', path: '', kind: 'layout', component: () => null }]),
    ).toThrow(/root layout/);
  });
});
