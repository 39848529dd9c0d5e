/**
 * The browser bundle's entry: hydrates the server-rendered page with the app's routes.
 */
import { hydrateApp } from '@strata/web/client';
import { appRoutes } from '../app/routes.js';

hydrateApp(appRoutes);
