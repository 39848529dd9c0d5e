import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../vitest.shared.js';

/**
 * The `compose` project: the production topology (docker-compose.yml) and the service images,
 * driven from code. Minutes, not seconds (image builds, whole stacks), so it is not part of the
 * `e2e` project; CI runs it on its own: `npx vitest run --config e2e/vitest.compose.config.ts`.
 */
export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'compose',
      root: new URL('.', import.meta.url).pathname,
      include: ['compose/**/*.test.ts'],
      // Builds the service images once, before the first file.
      globalSetup: ['compose/global-setup.ts'],
      hookTimeout: 600_000,
      testTimeout: 120_000,
      // Each file runs its own stack; the machine has two cores.
      fileParallelism: false,
    },
  }),
);
