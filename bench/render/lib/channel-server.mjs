#!/usr/bin/env node
// The render service as main.ts builds it with the segment cache off, but with its gRPC channel
// opened here with extra channel options (GRPC_CHANNEL_OPTIONS, JSON), e.g.
// {"grpc.enable_channelz":0}, to price grpc-js features per call.
// Env: RENDER_PORT (3211), DATA_SERVICE_ADDRESS, GRPC_CHANNEL_OPTIONS ("{}").
process.env.NODE_ENV ||= 'production';
const path = await import('node:path');
const { fileURLToPath, pathToFileURL } = await import('node:url');
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const imp = (p) => import(pathToFileURL(path.join(REPO, p)).href);

const { buildRenderApp, loadClientAssets, loadRenderConfig } = await imp(
  'services/render/dist/index.js',
);
const { CatalogServiceClient } = await imp('proto/dist/index.js');
const grpc = await import(
  pathToFileURL(path.join(REPO, 'node_modules/@grpc/grpc-js/build/src/index.js')).href
);
const { pino } = await import(pathToFileURL(path.join(REPO, 'node_modules/pino/pino.js')).href);

const config = loadRenderConfig({
  RENDER_PORT: process.env.RENDER_PORT || '3211',
  RENDER_HOST: '127.0.0.1',
  DATA_SERVICE_ADDRESS: process.env.DATA_SERVICE_ADDRESS,
  ACTION_SALT: 'bench-salt-123',
  LOG_LEVEL: 'warn',
  SEGMENT_CACHE: 'false',
});
const catalogChannel = new CatalogServiceClient(
  config.DATA_SERVICE_ADDRESS,
  grpc.credentials.createInsecure(),
  {
    // The same options as services/render/src/gateway/catalog-gateway.ts, then the experiment's.
    'grpc.keepalive_time_ms': 30_000,
    'grpc.enable_retries': 0,
    ...JSON.parse(process.env.GRPC_CHANNEL_OPTIONS || '{}'),
  },
);
const logger = pino({ name: 'render-channel', level: 'warn' });
const app = await buildRenderApp({ config, logger, catalogChannel, assets: loadClientAssets() });
await app.listen({ port: config.RENDER_PORT, host: config.RENDER_HOST });
const stop = () => app.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
