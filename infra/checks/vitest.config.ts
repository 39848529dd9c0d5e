import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'infra',
      include: ['test/**/*.test.ts'],
      // helm and promtool run as child processes.
      testTimeout: 60_000,
      hookTimeout: 120_000,
    },
  }),
);
