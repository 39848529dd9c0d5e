import { describe, expect, it } from 'vitest';
import { HEADERS, PAYLOAD_CONTENT_TYPE } from '../../protocol/constants.js';
import { encodeRecord } from '../../protocol/payload-records.js';
import type { SegmentState } from '../../render/segment-source.js';
import type { TrackedPromise } from '../../render/tracked-promise.js';
import { createRouteTable } from '../../routes/route-table.js';
import { segment } from '../../routes/route-types.js';
import { createRouter, type RouterEnvironment } from './create-router.js';
import { pageFromSource } from './page.js';

const BUILD = 'b1';
const Empty = () => null;
const table = createRouteTable([
  segment({
    id: 'root',
    path: '',
    kind: 'layout',
    root: true,
    component: Empty,
    children: [
      segment({ id: 'list', path: 'list', kind: 'page', component: Empty }),
      segment({ id: 'item', path: 'item', kind: 'page', component: Empty }),
    ],
  }),
]);
const state = (key: string, data: unknown): SegmentState => ({
  key,
  tags: [],
  private: false,
  outcome: { status: 'ok', data, deferred: [] },
});
const rootState = state('root', 'layout data');

/** The payload answer for `pageId` below the kept root layout. */
function answer(pageId: string): string {
  return [
    encodeRecord({
      type: 'route',
      build: BUILD,
      route: pageId,
      pattern: `/${pageId}`,
      root: 'root',
      params: {},
      segments: [
        { id: 'root', key: 'root' },
        { id: pageId, key: pageId },
      ],
      from: 1,
      until: 2,
    }),
    encodeRecord({
      type: 'segment',
      id: pageId,
      key: pageId,
      data: `${pageId} data`,
      tags: [],
      private: false,
      deferred: [],
    }),
    encodeRecord({ type: 'end' }),
  ].join('');
}

/** A router on /item whose fetch answers from memory, or never for paths in `stalled`. */
function setUp(stalled: readonly string[] = []) {
  const fetched: string[] = [];
  let href = 'http://test/item';
  const environment: RouterEnvironment = {
    fetch: async (input) => {
      const path = new URL(String(input), 'http://test').pathname;
      fetched.push(path);
      if (stalled.includes(path)) return new Promise<Response>(() => undefined);
      return new Response(answer(path.slice(1)), {
        headers: { 'content-type': PAYLOAD_CONTENT_TYPE, [HEADERS.build]: BUILD },
      });
    },
    now: () => 1_000,
    location: { href, assign: () => undefined, replace: () => undefined },
    history: {
      state: null,
      back: () => undefined,
      pushState: (_state, _title, url) => void (href = new URL(String(url), href).href),
      replaceState: () => undefined,
    },
    scroll: () => undefined,
    scrollY: () => 0,
    connection: () => ({ userAgent: 'test' }),
    onPopState: () => undefined,
  };
  const initial = pageFromSource(
    {
      url: '/item',
      routeId: 'item',
      root: 'root',
      params: {},
      segments: ['root', 'item'].map((id) => table.byId.get(id)!) as never[],
    },
    {
      emitScripts: false,
      segment: async (id) => (id === 'root' ? rootState : state(id, `${id} data`)),
      deferred: () => new Promise(() => undefined),
    },
  );
  const router = createRouter({ table, initial, build: BUILD, environment });
  const published: { url: string; pending: boolean }[] = [];
  router.subscribe(() =>
    published.push({ url: router.getSnapshot().page.url, pending: router.getSnapshot().pending }),
  );
  return { router, fetched, published };
}

// Lets in-memory fetches and streams finish.
const arrive = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('createRouter', () => {
  it('commits a prefetched answer that has arrived within navigate(), publishing once and fetching nothing', async () => {
    const { router, fetched, published } = setUp();
    await arrive();
    router.prefetch('/list', 'full');
    await arrive();

    router.navigate('/list');

    expect(published).toEqual([{ url: '/list', pending: false }]);
    expect(fetched).toEqual(['/list']);
    // React reads both segments without suspending: the kept layout's state is the same object.
    const page = router.getSnapshot().page;
    const kept = page.source.segment('root') as TrackedPromise<SegmentState>;
    const loaded = page.source.segment('list') as TrackedPromise<SegmentState>;
    expect([kept.status, kept.value]).toEqual(['fulfilled', rootState]);
    expect([loaded.status, loaded.value?.outcome]).toEqual([
      'fulfilled',
      { status: 'ok', data: 'list data', deferred: [] },
    ]);
  });

  it('keeps the old page while an answer that has not arrived loads, then commits it', async () => {
    const { router, published } = setUp();
    await arrive();

    router.navigate('/list');
    expect(published).toEqual([{ url: '/item', pending: true }]);
    await arrive();

    expect(published).toEqual([
      { url: '/item', pending: true },
      { url: '/list', pending: false },
    ]);
  });

  it('drops a slow navigation overtaken by a prefetched one', async () => {
    const { router, published } = setUp(['/item']);
    await arrive();
    router.prefetch('/list', 'full');
    await arrive();

    router.navigate('/item?again');
    router.navigate('/list');
    await arrive();

    expect(published).toEqual([
      { url: '/item', pending: true },
      { url: '/list', pending: false },
    ]);
  });
});
