// The environments the render benchmarks run the two services with: on loopback, the data
// service in memory behind a render service without a segment cache (every request reads from
// the data service). Their node flags are pair.mjs's and scenario.mjs's.
import { fileURLToPath } from 'node:url';
import { benchPagesEnv } from '../../kit/bench-pages.mjs';

const REPOSITORY = fileURLToPath(new URL('../../..', import.meta.url));

//
// PGlite runs on the data service's gRPC thread. On these 2 cores, shared with the render
// service and the load generator, the PGlite worker's structured clones and thread wake-ups cost
// the data service 18-37% more CPU per call than they save, and /bench/items served 2-12% fewer
// pages (RESULTS.md, section "2026-11-25 (midday)"). `npm start` does the same
// (scripts/stack/services.mjs). PGLITE_WORKER=true in the environment measures the worker.
export const BENCH_DATA_ENV = {
  DATA_HOST: '127.0.0.1',
  DATA_DIR: 'memory://',
  PGLITE_WORKER: process.env.PGLITE_WORKER || 'false',
  // Production mode with the development page-token key: a local run (docs/operations.md).
  STRATA_ALLOW_DEVELOPMENT_SECRETS: 'true',
};

/**
 * The render service's environment, in front of the data service at `dataPort`, for the
 * checkout at `root` (this one unless told).
 */
export function benchRenderEnv({ renderPort, dataPort, root = REPOSITORY }) {
  return {
    RENDER_PORT: String(renderPort),
    RENDER_HOST: '127.0.0.1',
    DATA_SERVICE_ADDRESS: `127.0.0.1:${dataPort}`,
    ACTION_SALT: 'bench-salt-123',
    SEGMENT_CACHE: 'false',
    REDIS_URL: '',
    // The pages measured: the bench app's, or an older checkout's switch.
    ...benchPagesEnv(root),
    // Production mode without PUBLIC_ORIGINS: a local run (docs/operations.md).
    STRATA_ALLOW_DEVELOPMENT_SECRETS: 'true',
  };
}
