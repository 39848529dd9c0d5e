/**
 * The app as the render service loads it (`strata dev` / `strata start` serve this package):
 * its name, its actions, and `start`, which builds what loaders and actions
 * receive for each request (`services`).
 */
import type { StrataApp } from '@strata/web/server';
import { appActions } from './actions/post-message.js';
import { MessageBoard } from './messages.js';
import { appRoutes } from './routes.js';
import type { AppServices } from './services.js';

const app: StrataApp<AppServices> = {
  name: 'app',
  actions: appActions,
  async start() {
    // Kept in memory: gone when the server restarts. Swap in your database here.
    const services: AppServices = { messages: new MessageBoard() };
    return {
      routes: appRoutes,
      servicesFor: () => services,
      close: async () => {},
    };
  },
};

export default app;
