import { defineConfig } from 'vitest/config';

// One Vitest project per workspace; each workspace's vitest.config.ts names its project.
export default defineConfig({
  test: {
    projects: ['proto', 'packages/*', 'services/*', 'apps/*', 'e2e', 'infra/checks', 'bench'],
  },
});
