/**
 * What the example app's loaders and actions receive for one request.
 */
import type { CatalogGateway } from './gateway/catalog-gateway.js';

/** Per-request services. */
export interface AppServices {
  readonly catalog: CatalogGateway;
}
