// How a checkout serves the benchmark pages (/bench/*): as the bench app (apps/bench) where it
// has one, else as the catalogue's RENDER_BENCH_PAGES switch, which older commits (a guard
// baseline) still read and newer ones dropped. Each side of an A/B picks for its own checkout.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The render settings serving the benchmark pages, given whether the checkout has the bench app. */
export const benchPagesSettings = (hasBenchApp) =>
  hasBenchApp ? { RENDER_APP: '@strata/app-bench' } : { RENDER_BENCH_PAGES: 'true' };

/** The same for the checkout at `root`. */
export const benchPagesEnv = (root) =>
  benchPagesSettings(existsSync(join(root, 'apps/bench/package.json')));
