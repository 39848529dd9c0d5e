#!/usr/bin/env node
// The render service exactly as main.ts builds it (buildRenderApp: Fastify, web routes, gateway
// with retries, trace ids, abort signals), but its data-service reads are answered by an
// in-process stub: each ListItems call gets a pre-encoded ListItemsResponse (the bytes the data
// service sends for the first 100 items) on the next turn of the event loop, decoded by the
// gateway as usual. Comparing it with the real service behind the data service isolates the
// transport's cost.
// Env: RENDER_PORT (3207), STUB_VIEW (full | slim: only the 4 printed fields on the wire).
process.env.NODE_ENV ||= 'production';
const path = await import('node:path');
const { fileURLToPath, pathToFileURL } = await import('node:url');
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
// Only the benchmark data is needed: the repository's copy (bench/anchors).
const ANCHORS = path.join(REPO, 'bench/anchors');
const imp = (p) => import(pathToFileURL(path.join(REPO, p)).href);

const { buildRenderApp, loadClientAssets, loadRenderConfig, startServedApp } = await imp(
  'services/render/dist/index.js',
);
// The bench app (apps/bench: the catalogue with the benchmark pages), as the render service
// loads it, over the stub below.
const { createBenchApp } = await imp('apps/bench/dist/index.js');
const { default: appRoutes } = await imp('apps/bench/dist/client.js');
const { ListItemsResponse } = await imp('proto/dist/index.js');
const { pino } = await import(pathToFileURL(path.join(REPO, 'node_modules/pino/pino.js')).href);
const { getItems } = await import(pathToFileURL(path.join(ANCHORS, 'shared/data.mjs')).href);

const now = new Date('2026-11-22T00:00:00Z');
const slim = process.env.STUB_VIEW === 'slim';
const wire = ListItemsResponse.encode({
  items: (await getItems()).map((i) =>
    slim
      ? {
          id: i.id,
          title: i.title,
          priceCents: i.priceCents,
          description: i.description,
          categoryId: '',
          version: 0,
        }
      : {
          id: i.id,
          title: i.title,
          priceCents: i.priceCents,
          description: i.description,
          categoryId: i.category,
          createTime: now,
          updateTime: now,
          version: 1,
        },
  ),
  nextPageToken: 'x'.repeat(40),
  tags: ['items'],
}).finish();

// Reads answer the encoded bytes on the next turn of the event loop; the catalogue client
// decodes them as it decodes the data service's. Nothing here writes or watches.
const dataTransport = {
  unary: () => new Promise((resolve) => setImmediate(() => resolve(Buffer.from(wire)))),
  serverStream() {
    throw new Error('the stub has no change feed');
  },
  addresses: () => ['stub'],
  probe: async () => ({ reachable: 1, replicas: 1 }),
  close() {},
};

const settings = {
  RENDER_PORT: process.env.RENDER_PORT || '3207',
  RENDER_HOST: '127.0.0.1',
  ACTION_SALT: 'bench-salt-123',
  RENDER_APP: '@strata/app-bench',
  LOG_LEVEL: 'warn',
};
const config = loadRenderConfig(settings);
const logger = pino({ name: 'render-stub', level: 'warn' });
const served = await startServedApp(createBenchApp({ dataTransport }), {
  config,
  env: { ...settings, STRATA_ALLOW_DEVELOPMENT_SECRETS: 'true' },
  logger,
  clientRoutes: appRoutes,
});
const assets = loadClientAssets('@strata/app-bench', path.join(REPO, 'apps/bench'));
const app = await buildRenderApp({ config, logger, served, assets });
await app.listen({ port: config.RENDER_PORT, host: config.RENDER_HOST });
const stop = () => app.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
