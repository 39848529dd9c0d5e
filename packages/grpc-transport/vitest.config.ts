import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedConfig,
  defineProject({
    test: { name: 'grpc-transport', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] },
  }),
);
