import { describe, expect, it } from 'vitest';
import { createRouteTable } from '../routes/route-table.js';
import type { SegmentDefinition } from '../routes/route-types.js';
import { loadPage, routeOf } from './load-page.js';
import type { SegmentCache, SegmentLookup } from './segment-cache.js';
import type { RenderRequest, WebRuntime } from './web-runtime.js';

const loaded = (id: string): SegmentDefinition => ({
  id,
  path: id === 'shop' ? '' : id,
  kind: id === 'shop' ? 'layout' : 'page',
  component: () => null,
  loader: () => id,
});
const table = createRouteTable([{ ...loaded('shop'), root: true, children: [loaded('items')] }]);
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

function runtimeWith(extra: Partial<WebRuntime<unknown>> = {}): WebRuntime<unknown> {
  return {
    table,
    buildId: 'b1',
    clientScripts: [],
    renderTimeoutMs: 1000,
    logger: quiet,
    ...extra,
  };
}

function requestFor(path: string): RenderRequest<unknown> {
  return {
    url: new URL(path, 'http://shop.test'),
    headers: {},
    cookies: {},
    services: {},
    signal: new AbortController().signal,
    traceId: 't',
  };
}

describe('routeOf', () => {
  it('names the transaction after the route, reusing one the adapter resolved', () => {
    const named: string[] = [];
    const runtime = runtimeWith({
      telemetry: {
        browser: {} as never,
        currentTrace: () => undefined,
        nameTransaction: (name) => void named.push(name),
      },
    });
    const route = routeOf(runtime, requestFor('/items'));
    expect(route.routeId).toBe('items');
    const elsewhere = { ...requestFor('/nowhere'), route };
    expect(routeOf(runtime, elsewhere)).toBe(route);
    expect(named).toEqual(['GET /items', 'GET /items']);
  });
});

describe('loadPage', () => {
  it('loads only segments[from..until)', async () => {
    const runtime = runtimeWith();
    const request = requestFor('/items');
    const route = routeOf(runtime, request);
    const load = loadPage(runtime, request, {
      route,
      search: request.url.searchParams,
      from: 1,
      until: 2,
      prefetch: false,
    });
    expect([...load.loaded.keys()]).toEqual(['items']);
    expect((await load.loaded.get('items'))?.outcome).toMatchObject({
      status: 'ok',
      data: 'items',
    });
  });

  it('answers the not-found page as fixed and loads the root above it', async () => {
    const runtime = runtimeWith();
    const request = requestFor('/nowhere');
    const route = routeOf(runtime, request);
    const whole = loadPage(runtime, request, {
      route,
      search: request.url.searchParams,
      from: 0,
      until: route.segments.length,
      prefetch: false,
    });
    expect([...whole.loaded.keys()]).toEqual(['shop', 'not-found']);
    expect((await whole.loaded.get('not-found'))?.outcome).toEqual({ status: 'not-found' });

    const rootOnly = loadPage(runtime, request, {
      route,
      search: request.url.searchParams,
      from: 0,
      until: 1,
      prefetch: false,
    });
    expect([...rootOnly.loaded.keys()]).toEqual(['shop']);
  });

  it('reads through the runtime segment cache, telling it whether this is a prefetch', async () => {
    const lookups: SegmentLookup[] = [];
    const segmentCache: SegmentCache = {
      resolve: (lookup, load) => {
        lookups.push(lookup);
        return load();
      },
    };
    const runtime = runtimeWith({ segmentCache });
    const request = requestFor('/items?q=1');
    const search = new URLSearchParams('q=2');
    loadPage(runtime, request, {
      route: routeOf(runtime, request),
      search,
      from: 0,
      until: 2,
      prefetch: true,
    });
    expect(lookups.map((l) => [l.build, l.segmentId, l.search, l.prefetch])).toEqual([
      ['b1', 'shop', search, true],
      ['b1', 'items', search, true],
    ]);
  });
});
