/**
 * The route table the server answers from: the example app minus the pages configuration leaves
 * off. The benchmark pages (/bench/*) and the failure drill pages (/errors/*) are for
 * benchmarks, tests and development only (RENDER_BENCH_PAGES, RENDER_ERROR_DRILLS); when off,
 * their URLs are not found. The browser bundle keeps the whole table (it never links to them
 * from other pages, and a navigation to one gets the server's not-found answer).
 */
import { createRouteTable, type RouteTable, type SegmentDefinition } from '@strata/web';
import { accountRoot } from './account/account-routes.js';
import { benchRoot } from './bench/bench-routes.js';
import type { AppServices } from './services.js';
import {
  clientErrorPage,
  renderErrorPage,
  segmentErrorPage,
  serverErrorPage,
} from './shop/error-pages.js';
import { shopRoot } from './shop/shop-routes.js';

/** Which optional pages the server serves. */
export interface OptionalPages {
  readonly benchPages: boolean;
  readonly errorDrills: boolean;
}

const ERROR_DRILLS: ReadonlySet<SegmentDefinition<AppServices>> = new Set([
  serverErrorPage,
  segmentErrorPage,
  clientErrorPage,
  renderErrorPage,
]);

/** The server's route table for these options. */
export function serverRoutes(options: OptionalPages): RouteTable<AppServices> {
  const shop = options.errorDrills
    ? shopRoot
    : { ...shopRoot, children: shopRoot.children?.filter((page) => !ERROR_DRILLS.has(page)) };
  return createRouteTable<AppServices>([
    ...(options.benchPages ? [benchRoot] : []),
    accountRoot,
    shop,
  ]);
}
