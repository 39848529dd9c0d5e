/**
 * A router over a two-page route table (/item, /list below a kept root layout) whose fetch
 * answers payloads from memory, for the router's unit tests.
 */
import { HEADERS, PAYLOAD_CONTENT_TYPE } from '../../src/protocol/constants.js';
import { encodeRecord } from '../../src/protocol/payload-records.js';
import type { SegmentState } from '../../src/render/segment-source.js';
import { createRouteTable } from '../../src/routes/route-table.js';
import { segment } from '../../src/routes/route-types.js';
import { createRouter, type RouterEnvironment } from '../../src/client/router/create-router.js';
import { pageFromSource } from '../../src/client/router/page.js';

const BUILD = 'b1';
const Empty = () => null;
export const table = createRouteTable([
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
export const rootState = state('root', 'layout data');

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

/** A router on /item whose fetch answers from memory, or for paths in `stalled` only once
 * `release()` is called. */
export function setUp(stalled: readonly string[] = []) {
  const fetched: string[] = [];
  const assigned: string[] = [];
  const held: Array<() => void> = [];
  let href = 'http://test/item';
  const environment: RouterEnvironment = {
    fetch: async (input) => {
      const path = new URL(String(input), 'http://test').pathname;
      fetched.push(path);
      const respond = () =>
        new Response(answer(path.slice(1)), {
          headers: { 'content-type': PAYLOAD_CONTENT_TYPE, [HEADERS.build]: BUILD },
        });
      if (stalled.includes(path))
        return new Promise<Response>((resolve) => held.push(() => resolve(respond())));
      return respond();
    },
    now: () => 1_000,
    location: { href, assign: (url) => void assigned.push(String(url)), replace: () => undefined },
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
  const release = () => held.splice(0).forEach((respond) => respond());
  return { router, fetched, assigned, published, release };
}

// Lets in-memory fetches and streams finish.
export const arrive = () => new Promise((resolve) => setTimeout(resolve, 10));
