/**
 * `@strata/app-notes/client`: the app's whole route table, for the browser bundle. Imports no
 * server-only code (its build bundles it with esbuild for the browser: strata-bundle-client).
 */
import { notesRoutes } from './routes.js';

export default notesRoutes({ errorDrill: true });
