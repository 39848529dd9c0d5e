import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedConfig,
  defineProject({
    test: { name: 'catalog-client', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
  }),
);
