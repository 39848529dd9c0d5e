/**
 * @strata/app-catalog: the example catalogue, loaded by the render service (RENDER_APP).
 */
import { createCatalogApp } from './catalog-app.js';

export { createCatalogApp, type CatalogAppOptions } from './catalog-app.js';
export { CatalogConfigSchema, loadCatalogConfig, type CatalogConfig } from './config.js';
export {
  createCatalogGateway,
  type BasicItem,
  type CatalogGateway,
  type ItemListQuery,
  type ItemListView,
} from './gateway/catalog-gateway.js';
export { ReadRefused } from './gateway/read-refused.js';
export type { AppServices as CatalogServices } from './services.js';

export default createCatalogApp();
