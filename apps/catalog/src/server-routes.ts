/**
 * The route table the server answers from: the catalogue minus the pages configuration leaves
 * off, behind the root segments an app built on it adds. The failure drill pages (/errors/*)
 * are for tests and development only (RENDER_ERROR_DRILLS); when off, their URLs are not found.
 * The browser bundle keeps the whole table (it never links to them from other pages, and a
 * navigation to one gets the server's not-found answer).
 */
import { createRouteTable, type RouteTable, type SegmentDefinition } from '@strata/web';
import { accountRoot } from './account/account-routes.js';
import type { AppServices } from './services.js';
import {
  clientErrorPage,
  renderErrorPage,
  segmentErrorPage,
  serverErrorPage,
} from './shop/error-pages.js';
import { shopRoot } from './shop/shop-routes.js';

/** What the server serves beside the catalogue's own pages. */
export interface ServedPages {
  readonly errorDrills: boolean;
  /** Root segments matched before the catalogue's (an app built on it). */
  readonly extraRoots: readonly SegmentDefinition<AppServices>[];
}

const ERROR_DRILLS: ReadonlySet<SegmentDefinition<AppServices>> = new Set([
  serverErrorPage,
  segmentErrorPage,
  clientErrorPage,
  renderErrorPage,
]);

/** The server's route table for these options. */
export function serverRoutes(options: ServedPages): RouteTable<AppServices> {
  const shop = options.errorDrills
    ? shopRoot
    : { ...shopRoot, children: shopRoot.children?.filter((page) => !ERROR_DRILLS.has(page)) };
  return createRouteTable<AppServices>([...options.extraRoots, accountRoot, shop]);
}
