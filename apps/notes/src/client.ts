/**
 * `@strata/app-notes/client`: the app's whole route table, for the browser bundle. Imports no
 * server-only code (the render service bundles it with esbuild for the browser).
 */
import { notesRoutes } from './routes.js';

export default notesRoutes({ errorDrill: true });
