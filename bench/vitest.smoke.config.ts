import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../vitest.shared.js';

/**
 * The `bench-smoke` project: every A/B tool and the drift guard run end to end for one short
 * round on the built checkout. Each loads two service pairs flat out, which would skew the timing
 * of everything beside it, so `npm test` runs it on its own, after the app-developer pass:
 * `npx vitest run --config bench/vitest.smoke.config.ts` (needs `npm run build`; the cache
 * scenario needs a container engine for its Redis).
 */
export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'bench-smoke',
      root: new URL('.', import.meta.url).pathname,
      include: ['smoke/**/*.test.mjs'],
      testTimeout: 300_000,
      hookTimeout: 300_000,
      fileParallelism: false,
    },
  }),
);
