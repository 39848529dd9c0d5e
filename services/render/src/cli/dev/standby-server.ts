/**
 * A render server of `strata dev` that starts before it is needed: it loads the service's
 * modules (Fastify, React's server renderer, the runtime: most of a start's time) while the
 * current server still serves, then waits. Told to go with the environment, it runs the
 * composition root (main.js), which only has the app left to import: a rebuild is served sooner.
 */
import type { ServerEnvironment } from './render-child.js';

await Promise.all([
  import('../../config.js'),
  import('../../load-app.js'),
  import('../../render-app.js'),
  import('../../served-app.js'),
  import('../../segment-cache/index.js'),
  import('../../production-guard.js'),
  import('@strata/web/server'),
]);
process.send?.({ warm: true });
process.once('message', (environment: ServerEnvironment) => {
  Object.assign(process.env, environment);
  // Its own process.once handlers replace nothing of ours; it reads process.env and listens.
  void import('../../main.js');
});
// Ends with its parent (strata dev stopped with SIGKILL leaves no standby behind).
process.once('disconnect', () => process.exit(0));
