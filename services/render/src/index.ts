export { loadClientAssets } from './client-assets.js';
export { RenderConfigSchema, loadRenderConfig, type RenderConfig } from './config.js';
export {
  createCatalogGateway,
  type BasicItem,
  type CatalogGateway,
  type ItemListQuery,
  type ItemListView,
} from './gateway/catalog-gateway.js';
export { ReadRefused } from './gateway/read-refused.js';
export { buildRenderApp, type ClientAssets, type RenderAppDeps } from './render-app.js';
