/**
 * The catalogue's route table: catalogue and account area. Shared by the server and the browser
 * bundle, so it imports no server-only code.
 */
import { createRouteTable, type SegmentDefinition } from '@strata/web';
import { accountRoot } from './account/account-routes.js';
import type { AppServices } from './services.js';
import { shopRoot } from './shop/shop-routes.js';

/** The catalogue's root segments, for an app that serves them beside its own. */
export const catalogRoots: readonly SegmentDefinition<AppServices>[] = [accountRoot, shopRoot];

/** Every route of the catalogue. */
export const appRoutes = createRouteTable<AppServices>(catalogRoots);
