/**
 * The route table for the browser: `strata build` bundles it into dist/public/assets. It imports
 * no server-only code (loaders travel with it but only run on the server).
 */
import { appRoutes } from './routes.js';

export default appRoutes;
