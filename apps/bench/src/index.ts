/**
 * @strata/app-bench: the catalogue plus the benchmark pages, loaded by the render service
 * (RENDER_APP=@strata/app-bench) for benchmarks and tests, never in production.
 */
import { createBenchApp } from './bench-app.js';

export { createBenchApp, type BenchAppOptions } from './bench-app.js';

export default createBenchApp();
