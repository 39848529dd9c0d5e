/**
 * `@strata/app-catalog/pages`: what an app built on the catalogue composes (the bench app): the
 * catalogue's root segments and what its pages print with. Imports no server-only code, since
 * such an app's browser bundle takes it too.
 */
export { parseId } from './item-id.js';
export { formatPrice } from './price.js';
export { catalogRoots } from './routes.js';
export type { AppServices as CatalogServices } from './services.js';
