/**
 * The catalogue's whole route table for the browser bundle (it imports no server-only code).
 */
import { appRoutes } from './routes.js';

export default appRoutes;
