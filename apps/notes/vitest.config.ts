import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.js';

export default mergeConfig(
  sharedConfig,
  defineProject({
    test: { name: 'app-notes', include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}'] },
  }),
);
