import { defineConfig } from 'vitest/config';

/**
 * Settings every workspace's Vitest project merges in: workspace packages resolve to their
 * TypeScript sources (the `@strata/source` export condition), so tests never need a build.
 */
export const sharedConfig = defineConfig({
  resolve: { conditions: ['@strata/source'] },
  ssr: { resolve: { conditions: ['@strata/source'], externalConditions: ['@strata/source'] } },
});
