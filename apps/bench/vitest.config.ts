import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'app-bench',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      // Its hooks start a data service (PGlite seeding) on a shared 2-core machine.
      hookTimeout: 120_000,
    },
  }),
);
