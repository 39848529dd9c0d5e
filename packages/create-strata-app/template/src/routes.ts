/**
 * The route tree: a root layout (it renders <html>) holding two pages.
 */
import { createRouteTable, segment } from '@strata/web';
import { homePage } from './pages/home-page.js';
import { SiteLayout, NotFound } from './pages/site-layout.js';
import { slowPage } from './pages/slow-page.js';
import type { AppServices } from './services.js';

export const appRoutes = createRouteTable<AppServices>([
  // The root layout renders <html>; being the root of the page at /, it also renders the
  // not-found page of every URL no route matches.
  segment<null, AppServices>({
    id: 'site',
    path: '',
    kind: 'layout',
    root: true,
    component: SiteLayout,
    notFound: NotFound,
    children: [homePage, slowPage],
  }),
]);
