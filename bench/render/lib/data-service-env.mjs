// How the render benchmarks run the data service behind the render service: in memory, on
// loopback, and with PGlite on its gRPC thread. On these 2 cores, shared with the render service
// and the load generator, the PGlite worker's structured clones and thread wake-ups cost the data
// service ~27% more CPU per call than they save, and /bench/items served ~12% fewer pages
// (RESULTS.md, "PGlite on the data service's own thread"). `npm start` does the same
// (scripts/stack/services.mjs). PGLITE_WORKER=true in the environment measures the worker.
export const BENCH_DATA_ENV = {
  DATA_HOST: '127.0.0.1',
  DATA_DIR: 'memory://',
  PGLITE_WORKER: process.env.PGLITE_WORKER || 'false',
};
