import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../vitest.shared.js';

/**
 * The `swarm` project: docker-stack.yml on a two-node Docker Swarm made on this machine
 * (e2e/swarm/cluster.sh; needs root). It puts the machine's engine into a swarm while it runs,
 * so `npm test` runs it on its own, after the compose pass:
 * `npx vitest run --config e2e/vitest.swarm.config.ts`.
 */
export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'swarm',
      root: new URL('.', import.meta.url).pathname,
      include: ['swarm/**/*.test.ts'],
      // The same images as the compose pass (built once; seconds when cached).
      globalSetup: ['compose/global-setup.ts'],
      hookTimeout: 600_000,
      testTimeout: 120_000,
      // One cluster at a time.
      fileParallelism: false,
    },
  }),
);
