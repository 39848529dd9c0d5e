/**
 * @strata/web/client: the browser side of the runtime (hydration; the router comes with it).
 */
export { hydrateApp, type BootRecord } from './hydrate.js';
