/**
 * The example application's route table: catalogue, account area and benchmark pages. Shared
 * by the server and the browser bundle, so it imports no server-only code.
 */
import { createRouteTable } from '@strata/web';
import { accountRoot } from './account/account-routes.js';
import { benchRoot } from './bench/bench-routes.js';
import type { AppServices } from './services.js';
import { shopRoot } from './shop/shop-routes.js';

/** Every route of the example app. */
export const appRoutes = createRouteTable<AppServices>([benchRoot, accountRoot, shopRoot]);
