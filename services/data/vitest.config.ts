import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'data',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      // Container start-up and PGlite's first open are slow on a shared 2-core machine.
      hookTimeout: 180_000,
      testTimeout: 30_000,
    },
  }),
);
