#!/usr/bin/env node
// In-process cost of the render service's /bench/items document and navigation payload, with
// the data already in memory (no HTTP, no gRPC, no data service), beside the anchors'
// fastify-react element tree rendered by the same react-dom. Variants isolate what the runtime
// adds on top of "React renders the page":
//
//   strata renderDocument        the runtime's document path as served (loaders, SegmentTree,
//                                inline hydration scripts, boot script, PassThrough)
//   tree, pending, via PassThrough  the same, through a PassThrough drained by 'data' events
//   tree, pending promises       SegmentTree with the same scripts rendered straight to a sink
//                                (no loaders, no PassThrough), each segment's state a fresh
//                                pending promise as load-route.ts hands out today
//   tree, settled thenables      the same SegmentTree and scripts, but each segment's state is
//                                a thenable React can read synchronously (status "fulfilled"),
//                                so no segment suspends
//   tree, settled, renderToString  the settled tree rendered to one string (no streaming), plus
//                                the boot scripts: what a route with no loading view could use
//   tree, settled, plain <a>     the same with plain anchors instead of <Link> (same markup)
//   tree, settled, no scripts    the same without the inline hydration scripts
//   anchors itemsDocument        fastify-react's element tree (no runtime, no hydration data)
//   strata renderPayload (nav)   the navigation payload /bench/items/1 -> /bench/items
//   ListItems decode             the render service's decoder (generated, proto/src/gen) of the
//                                100 items: full Item messages, or the basic view the bench
//                                app asks for (the 4 printed fields)
//   JSON only: jsonForScript     serialising the items segment for its inline script (as before
//                                proposal 4, and packed with its list keys once as now)
//
// Usage: node bench/render/micro.mjs   (after `npm run build`)
// Env: RENDERS (1000 per variant), NAME (bench/.out/render/<NAME>/; micro-<UTC time>), VARIANTS (filter)
process.env.NODE_ENV = 'production';
const fs = await import('node:fs');
const path = await import('node:path');
const { drain, streamReact, streamReactViaPassThrough } = await import('./lib/react-sinks.mjs');
const { plainBenchSegments } = await import('./lib/plain-bench-segments.mjs');
const { fileURLToPath, pathToFileURL } = await import('node:url');
const { loadAverage } = await import('../kit/cpu.mjs');
const { runName, writeOutputs } = await import('../kit/out.mjs');
const { microMarkdown, microRows } = await import('./lib/micro-table.mjs');

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
// The anchors' data and Fastify+React page: the repository's copies (bench/anchors).
const ANCHORS = path.join(REPO, 'bench/anchors');
const RENDERS = Number(process.env.RENDERS || 1000);
const BATCHES = 5;
const NAME = process.env.NAME || runName('micro');
const imp = (p) => import(pathToFileURL(path.join(REPO, p)).href);

const React = await import(pathToFileURL(path.join(REPO, 'node_modules/react/index.js')).href);
const { renderToString } = await import(
  pathToFileURL(path.join(REPO, 'node_modules/react-dom/server.node.js')).href
);
const { renderDocument, renderPayload } = await imp('packages/web/dist/server/index.js');
const { payloadHash } = await imp('packages/web/dist/index.js');
const { SegmentTree } = await imp('packages/web/dist/render/segment-tree.js');
const { FormResultContext } = await imp('packages/web/dist/render/form-result.js');
const { jsonForScript } = await imp('packages/web/dist/protocol/safe-json.js');
const { packRows } = await imp('packages/web/dist/protocol/row-tables.js');
// The bench app's routes (apps/bench: the benchmark pages before the catalogue's), as the render
// service serves them.
const { default: appRoutes } = await imp('apps/bench/dist/client.js');
const { benchRoot } = await imp('apps/bench/dist/bench-routes.js');
const { decodeListItemsResponse } = await imp('proto/dist/index.js');
const { listItemsWire } = await import('./lib/list-wire.mjs');
const { getItems } = await import(pathToFileURL(path.join(ANCHORS, 'shared/data.mjs')).href);
const { itemsDocument, BOOTSTRAP_SCRIPT } = await import(
  pathToFileURL(path.join(ANCHORS, 'fastify-react/page.mjs')).href
);

// The data as the data service returns it (proto Item fields), already in memory.
const anchorItems = await getItems();
const protoItems = anchorItems.map((i) => ({
  id: i.id,
  title: i.title,
  priceCents: i.priceCents,
  description: i.description,
  categoryId: i.category,
  version: 1,
}));
const services = {
  catalog: {
    listItems: async () => ({
      items: protoItems.map((i) => ({ ...i })),
      nextPageToken: '',
      tags: ['items'],
    }),
    getItem: async (id) => ({ item: { ...protoItems[id - 1] }, tags: [`item:${id}`] }),
  },
  actionIds: {},
};
const silent = { error() {}, warn() {}, info() {} };
const runtime = {
  table: appRoutes,
  buildId: 'BENCHBLD',
  clientScripts: ['/assets/client-BENCHBLD.js'],
  renderTimeoutMs: 10_000,
  logger: silent,
};
const TREE = '1;bench-root/bench-section/bench-item(p.id=1)';
const request = (pathAndQuery, headers = {}) => ({
  url: new URL(pathAndQuery, 'http://internal'),
  headers,
  cookies: {},
  services,
  signal: new AbortController().signal,
  traceId: '0123456789abcdef0123456789abcdef',
});

// Segment definitions and settled states for the tree variants.
const section = benchRoot.children[0];
const itemsPage = section.children.find((s) => s.id === 'bench-items');
const segments = [benchRoot, section, itemsPage];
const itemsData = {
  items: protoItems.map(({ id, title, priceCents, description }) => ({
    id,
    title,
    priceCents,
    description,
  })),
};
const stateOf = (id, data, tags) => ({
  key: id,
  tags,
  private: false,
  outcome: { status: 'ok', data, deferred: [] },
});
const settled = (value) => Object.assign(Promise.resolve(value), { status: 'fulfilled', value });
const boot = `self.__strata_boot=${jsonForScript({ build: 'BENCHBLD', route: 'bench-items', pattern: '/bench/items', params: {}, segments: segments.map((s) => s.id), form: null })}`;

function treeElement(emitScripts, pending = false, tree = segments) {
  const states = new Map([
    ['bench-root', settled(stateOf('bench-root', null, []))],
    ['bench-section', settled(stateOf('bench-section', null, []))],
    [
      'bench-items',
      settled(stateOf('bench-items', { items: itemsData.items.map((i) => ({ ...i })) }, ['items'])),
    ],
  ]);
  // pending: what load-route.ts's source does today, `loaded.get(id).then(toState)`, a new
  // promise on every call that is still pending when React's use() first sees it.
  const segment = pending ? (id) => states.get(id).then((state) => state) : (id) => states.get(id);
  const source = { emitScripts, segment, deferred: () => settled({ status: 'ok', value: null }) };
  return React.createElement(
    FormResultContext,
    { value: null },
    React.createElement(SegmentTree, { segments: tree, params: {}, source }),
  );
}

const wire = listItemsWire(protoItems);

const { formatPrice } = await imp('apps/catalog/dist/price.js');
const plainSegments = plainBenchSegments({ React, benchRoot, section, itemsPage, formatPrice });

const navHash = payloadHash({ tree: TREE, prefetch: undefined });
const variants = [
  [
    'strata renderDocument',
    async () => drain((await renderDocument(runtime, request('/bench/items'))).body),
  ],
  [
    'tree, pending, via PassThrough',
    () =>
      streamReactViaPassThrough(treeElement(true, true), {
        bootstrapScriptContent: boot,
        bootstrapModules: runtime.clientScripts,
      }),
  ],
  [
    'tree, pending promises (as today)',
    () =>
      streamReact(treeElement(true, true), {
        bootstrapScriptContent: boot,
        bootstrapModules: runtime.clientScripts,
      }),
  ],
  [
    'tree, settled thenables',
    () =>
      streamReact(treeElement(true), {
        bootstrapScriptContent: boot,
        bootstrapModules: runtime.clientScripts,
      }),
  ],
  [
    'tree, settled, renderToString + boot scripts',
    async () => {
      // What a route without loading views could send once every loader has settled: one string,
      // same markup (doctype, modulepreload link and bootstrap scripts added by hand here).
      const html = `<!DOCTYPE html>${renderToString(treeElement(true))}`;
      return Buffer.byteLength(
        html +
          `<script>${boot}</script><script type="module" src="${runtime.clientScripts[0]}" async=""></script>`,
      );
    },
  ],
  [
    'tree, settled, plain <a> (no Link)',
    () =>
      streamReact(treeElement(true, false, plainSegments), {
        bootstrapScriptContent: boot,
        bootstrapModules: runtime.clientScripts,
      }),
  ],
  [
    'tree, settled, no scripts',
    () =>
      streamReact(treeElement(false), {
        bootstrapScriptContent: boot,
        bootstrapModules: runtime.clientScripts,
      }),
  ],
  [
    'anchors itemsDocument',
    () => streamReact(itemsDocument(anchorItems), { bootstrapScriptContent: BOOTSTRAP_SCRIPT }),
  ],
  [
    'strata renderPayload (nav)',
    async () =>
      drain(
        (
          await renderPayload(
            runtime,
            request(`/bench/items?_p=${navHash}`, { 'strata-payload': '1', 'strata-tree': TREE }),
          )
        ).body,
      ),
  ],
  [
    'ListItems decode, full items',
    async () => decodeListItemsResponse(wire.full).items.length && wire.full.length,
  ],
  [
    'ListItems decode, basic view',
    async () => decodeListItemsResponse(wire.basic).items.length && wire.basic.length,
  ],
  [
    'JSON only: jsonForScript(items state)',
    async () =>
      jsonForScript(['s', 'bench-items', stateOf('bench-items', itemsData, ['items'])]).length,
  ],
  [
    'JSON only: jsonForScript(packRows(items state))',
    async () =>
      jsonForScript(packRows(['s', 'bench-items', stateOf('bench-items', itemsData, ['items'])]))
        .length,
  ],
];

async function batch(fn, n) {
  let bytes = 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) bytes = await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wallMs: wall / n, cpuMs: (c.user + c.system) / 1000 / n, bytes };
}

// VARIANTS: comma-separated substrings selecting variants (e.g. for a --cpu-prof run of one).
if (process.env.VARIANTS) {
  const want = process.env.VARIANTS.split(',');
  variants.splice(
    0,
    variants.length,
    ...variants.filter(([name]) => want.some((w) => name.includes(w))),
  );
}
const results = new Map(variants.map(([name]) => [name, []]));
for (const [, fn] of variants) await batch(fn, 200); // warm-up
for (let b = 0; b < BATCHES; b++) {
  const order = b % 2 ? [...variants].reverse() : variants;
  for (const [name, fn] of order)
    results.get(name).push(await batch(fn, Math.ceil(RENDERS / BATCHES)));
}
const reactDomVersion = JSON.parse(
  fs.readFileSync(path.join(REPO, 'node_modules/react-dom/package.json'), 'utf8'),
).version;
const rows = microRows(results);
const md = microMarkdown(
  `In-process, data in memory; ${RENDERS} renders per variant in ${BATCHES} alternating batches after 200 warm-up renders; node ${process.version}, react-dom ${reactDomVersion}, NODE_ENV=production; load average ${loadAverage()}.`,
  rows,
);
const out = writeOutputs(`render/${NAME}`, {
  'micro.md': md,
  'micro.json': JSON.stringify({ renders: RENDERS, batches: BATCHES, rows }, null, 2) + '\n',
});
console.log(md);
console.log(`wrote ${path.relative(REPO, out)}/micro.md, micro.json`);
