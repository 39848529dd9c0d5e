import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

// The render service's node flag (docs/render-service.md, "Memory") is set by every start
// path; the benchmark must start it as deployments do.
const flag = /RENDER_NODE_FLAG = '([^']+)'/.exec(read('scripts/stack/services.mjs'))?.[1];

describe('the render service starts with the same node flag everywhere', () => {
  it('has one, defined for npm start', () => {
    expect(flag).toMatch(/^--max-semi-space-size=\d+$/);
  });

  it.each([
    [
      'its Dockerfile',
      'services/render/Dockerfile',
      (f: string) => `"node", "${f}", "services/render/dist/main.js"`,
    ],
    [
      'its npm start script',
      'services/render/package.json',
      (f: string) => `node ${f} dist/main.js`,
    ],
    [
      'the anchor benchmark',
      'bench/render/run.sh',
      (f: string) => `exec node ${f} services/render/dist/main.js`,
    ],
    ['the profiler', 'bench/render/profile.mjs', (f: string) => `['${f}']`],
    ['the docs', 'docs/render-service.md', (f: string) => `\`${f}\``],
  ])('%s', (_where, path, expected) => {
    expect(read(path)).toContain(expected(flag!));
  });
});
