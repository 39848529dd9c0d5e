/**
 * The render and data services' node flag (docs/render-service.md and docs/data-service.md,
 * "Memory") is set by every path that starts them: deployments and `npm start` run with it, and
 * the benchmarks must start the services as deployments do.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

const flag = /SERVICE_NODE_FLAG = '([^']+)'/.exec(read('scripts/stack/services.mjs'))?.[1];

describe('the render and data services start with the same node flag everywhere', () => {
  it('has one, and npm start passes it to both', () => {
    expect(flag).toMatch(/^--max-semi-space-size=\d+$/);
    const catalog = read('scripts/stack/services.mjs');
    expect(catalog.match(/nodeArgs: \[SERVICE_NODE_FLAG\]/g)).toHaveLength(2);
  });

  it.each(['render', 'data'])(
    'the %s service: its Dockerfile, npm start script and docs',
    (service) => {
      expect(read(`services/${service}/Dockerfile`)).toContain(
        `"node", "${flag}", "services/${service}/dist/main.js"`,
      );
      expect(read(`services/${service}/package.json`)).toContain(`node ${flag} dist/main.js`);
      expect(read(`docs/${service}-service.md`)).toContain(`\`${flag}\``);
    },
  );

  it.each([
    ['the anchor benchmark (render)', 'bench/render/run.sh', `exec node ${flag!} services/render`],
    ['the anchor benchmark (data)', 'bench/render/lib/drive.mjs', `['${flag!}', 'services/data`],
    ['the profiler', 'bench/render/profile.mjs', `['${flag!}']`],
  ])('%s', (_where, path, expected) => {
    expect(read(path)).toContain(expected);
  });
});
