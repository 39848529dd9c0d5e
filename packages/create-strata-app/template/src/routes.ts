/**
 * The route tree: a root layout (it renders <html>) holding two pages.
 */
import { createRouteTable, segment } from '@strata/web';
import { homePage } from './pages/home-page.js';
import { SiteLayout, NotFound } from './pages/site-layout.js';
import { slowPage } from './pages/slow-page.js';
import type { AppServices } from './services.js';

/** Id of the root layout, which also renders the not-found page. */
export const ROOT = 'site';

export const appRoutes = createRouteTable<AppServices>([
  segment<null, AppServices>({
    id: ROOT,
    path: '',
    kind: 'layout',
    root: true,
    component: SiteLayout,
    notFound: NotFound,
    children: [homePage, slowPage],
  }),
]);
