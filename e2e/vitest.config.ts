import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../vitest.shared.js';

export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'e2e',
      include: ['tests/**/*.test.ts'],
      // Browsers and child processes on a shared 2-core machine.
      hookTimeout: 120_000,
      testTimeout: 60_000,
      fileParallelism: false,
    },
  }),
);
