import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'create-strata-app',
      // The template's own test runs here too, against this repository's packages.
      include: ['test/**/*.test.ts', 'template/src/**/*.test.ts'],
      testTimeout: 60_000,
      hookTimeout: 120_000,
    },
  }),
);
