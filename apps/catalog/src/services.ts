/**
 * What the example app's loaders and actions receive for one request.
 */
import type { CatalogGateway } from './gateway/catalog-gateway.js';

/** Per-request services. */
export interface AppServices {
  readonly catalog: CatalogGateway;
  /** Server-action ids by name, for forms to post. */
  readonly actionIds: Readonly<Record<string, string>>;
}
