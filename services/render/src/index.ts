export { loadClientAssets } from './client-assets.js';
export { RenderConfigSchema, loadRenderConfig, type RenderConfig } from './config.js';
export {
  createCatalogChannel,
  createCatalogGateway,
  type CatalogGateway,
} from './gateway/catalog-gateway.js';
export { buildRenderApp, type ClientAssets, type RenderAppDeps } from './render-app.js';
