// The services `npm start` runs, in start order, with their local defaults. A variable that is
// already set in the environment is never overridden.

/**
 * The render and data services' node flags, wherever they are started (here, their Dockerfiles
 * and npm start scripts, the benchmarks; e2e/tests/launch-flags.test.ts checks they agree):
 * - no memory reducer, so a quiet spell does not shrink the heap the next burst has to regrow;
 * - a young generation that starts at 64 MB semi-spaces and stays there. Grown on demand
 *   instead, V8 promoted most of what survived each scavenge of the render service's pages under
 *   concurrent load, and paid for copying and then marking it; both services spend less CPU per
 *   request with it. The maximum is needed too: Node 26's V8 keeps the minimum under its default
 *   maximum (32 MB), where Node 24's gave the minimum asked for.
 * (docs/render-service.md and docs/data-service.md, "Memory"; bench/render/RESULTS.md.)
 */
export const SERVICE_NODE_FLAGS = [
  '--no-memory-reducer',
  '--min-semi-space-size=64',
  '--max-semi-space-size=64',
];

/** The render service's node flags: the services' own (`strata start` passes them too). */
export const RENDER_SERVICE_NODE_FLAGS = SERVICE_NODE_FLAGS;

/**
 * The relay's node flags, wherever it is started (here, its Dockerfile and npm start script, the
 * relay and attack benchmarks; e2e/tests/launch-flags.test.ts checks they agree): full
 * collections start only when the old generation reaches its limit, not from V8's background
 * marking task, which on the relay's small heap keeps starting them (docs/relay.md, "Memory").
 */
export const RELAY_NODE_FLAGS = ['--no-incremental-marking-task'];

/** Defaults applied under the caller's environment. */
function withDefaults(env, defaults) {
  const merged = { ...defaults };
  for (const [key, value] of Object.entries(env)) if (value !== undefined) merged[key] = value;
  return merged;
}

/**
 * The apps of this repository: pages worth trying first, and whether the app reads the data
 * service (another app gets it too, in case it does).
 */
const KNOWN_APPS = {
  '@strata/app-catalog': { tryPages: '/items, /errors/client, /api/items', data: true },
  '@strata/app-bench': { tryPages: '/bench/items, /items, /errors/client', data: true },
  '@strata/app-notes': { tryPages: '/notes, /notes/stats', data: false },
};

/** Every service of the local stack. */
export function serviceCatalog(env) {
  const relayPort = env.RELAY_PORT ?? '3100';
  // Services and browsers report to the relay's development DSN; Spotlight shows everything.
  const telemetry = withDefaults(env, {
    SENTRY_DSN: `http://strata0dev0key@localhost:${relayPort}/1`,
    SENTRY_ENVIRONMENT: 'development',
    RELAY_URL: `http://127.0.0.1:${relayPort}`,
  });
  const data = withDefaults(telemetry, {
    DATA_PORT: '50051',
    DATA_HOST: '127.0.0.1',
    DATA_DIR: '.data/pglite',
    DATA_METRICS_PORT: '9464',
    // The render service shares this machine: PGlite on the gRPC thread costs less CPU in all
    // than its worker thread (docs/data-service.md, "Storage").
    PGLITE_WORKER: 'false',
  });
  const render = withDefaults(telemetry, {
    RENDER_PORT: '3000',
    RENDER_HOST: '127.0.0.1',
    DATA_SERVICE_ADDRESS: `${data.DATA_HOST}:${data.DATA_PORT}`,
    // Development: the failure drills are there to try (the benchmark pages are the bench
    // app's: RENDER_APP=@strata/app-bench).
    RENDER_ERROR_DRILLS: 'true',
  });
  // The render service's own default app when RENDER_APP is unset.
  const app = render.RENDER_APP ?? '@strata/app-catalog';
  const { tryPages, data: needsData = true } = KNOWN_APPS[app] ?? {};
  const spotlightPort = env.SPOTLIGHT_PORT ?? '8969';
  const relay = withDefaults(env, {
    RELAY_PORT: relayPort,
    RELAY_DSNS: telemetry.SENTRY_DSN,
    // Only the render service (forwarding the browser's tunnel) and local processes reach it.
    RELAY_TRUST_PROXY: 'true',
    RELAY_HOST: '127.0.0.1',
    RELAY_SPOOL_DIR: '.data/relay-spool',
    // Local development: forward to the Spotlight sidecar with a local DSN (see docs/relay.md).
    RELAY_DEV_DEFAULTS: '1',
    RELAY_UPSTREAM: `http://localhost:${spotlightPort}`,
  });
  const services = [
    {
      name: 'spotlight',
      entry: 'node_modules/@spotlightjs/spotlight/dist/run.js',
      args: ['server', '--port', spotlightPort],
      env: { ...env },
      url: `http://localhost:${spotlightPort}  (every event and trace the relay forwards)`,
      ready: { kind: 'tcp', host: '127.0.0.1', port: Number(spotlightPort) },
    },
    {
      name: 'relay',
      entry: 'services/relay/dist/main.js',
      nodeArgs: RELAY_NODE_FLAGS,
      env: relay,
      url: `http://${relay.RELAY_HOST}:${relay.RELAY_PORT}  (tunnel ${relay.RELAY_TUNNEL_PATH ?? '/monitoring'})`,
      ready: { kind: 'http', url: `http://${relay.RELAY_HOST}:${relay.RELAY_PORT}/healthz` },
    },
    {
      name: 'data',
      entry: 'services/data/dist/main.js',
      nodeArgs: SERVICE_NODE_FLAGS,
      env: data,
      url: `grpc://${data.DATA_HOST}:${data.DATA_PORT}  (reflection on; try grpcurl -plaintext ${data.DATA_HOST}:${data.DATA_PORT} list; metrics at http://${data.DATA_HOST}:${data.DATA_METRICS_PORT}/metrics)`,
      ready: { kind: 'tcp', host: data.DATA_HOST, port: Number(data.DATA_PORT) },
    },
    {
      name: 'render',
      entry: 'services/render/dist/main.js',
      nodeArgs: RENDER_SERVICE_NODE_FLAGS,
      env: render,
      // The catalogue's change feed and first reads need the data service; starting together
      // only produced reconnect warnings while PGlite opened and seeded.
      ...(needsData && { after: 'data' }),
      url: `http://${render.RENDER_HOST}:${render.RENDER_PORT}  (${app}${tryPages ? `; try ${tryPages}` : ''})`,
      ready: { kind: 'http', url: `http://${render.RENDER_HOST}:${render.RENDER_PORT}/healthz` },
    },
  ];
  return needsData ? services : services.filter((service) => service.name !== 'data');
}
