/**
 * `@strata/app-bench/client`: the whole route table for the browser bundle, the benchmark root
 * before the catalogue's (it imports no server-only code).
 */
import { catalogRoots, type CatalogServices } from '@strata/app-catalog/pages';
import { createRouteTable } from '@strata/web';
import { benchRoot } from './bench-routes.js';

export default createRouteTable<CatalogServices>([benchRoot, ...catalogRoots]);
