import { defineProject, mergeConfig } from 'vitest/config';
import { sharedConfig } from '../vitest.shared.js';

// bench/ is not a workspace (its scripts run from the repository root); its kit's pure modules
// are tested here: statistics, verdicts, /proc parsing, profile summaries, reports, the guard's
// arguments, and the scenarios' own pure parts (the gateway sides' configuration, the relay's
// envelopes, the render micro-benchmark's table).
export default mergeConfig(
  sharedConfig,
  defineProject({
    test: {
      name: 'bench',
      include: [
        'kit/**/*.test.mjs',
        'guard/**/*.test.mjs',
        'gateway/**/*.test.mjs',
        'relay/**/*.test.mjs',
        'render/**/*.test.mjs',
      ],
    },
  }),
);
