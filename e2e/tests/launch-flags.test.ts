/**
 * The services' node flags (docs/render-service.md, docs/data-service.md and docs/relay.md,
 * "Memory") are set by every path that starts them: deployments and `npm start` run with them,
 * and the benchmarks must start the services as deployments do.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  RELAY_NODE_FLAGS,
  SERVICE_NODE_FLAGS,
  serviceCatalog,
} from '../../scripts/stack/services.mjs';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const flags = SERVICE_NODE_FLAGS;
const asWords = flags.join(' ');

describe('the render and data services start with the same node flags everywhere', () => {
  it('are no memory reducer, and npm start passes them to both', () => {
    expect(flags).toEqual(['--no-memory-reducer']);
    const started = serviceCatalog({}).filter((service) => service.nodeArgs === flags);
    expect(started.map((service) => [service.name, service.nodeArgs])).toEqual([
      ['data', flags],
      ['render', flags],
    ]);
  });

  it.each(['render', 'data'])(
    'the %s service: its Dockerfile, npm start script and docs',
    (service) => {
      const execForm = ['node', ...flags, `services/${service}/dist/main.js`].map((w) => `"${w}"`);
      expect(read(`services/${service}/Dockerfile`)).toContain(`CMD [${execForm.join(', ')}]`);
      expect(read(`services/${service}/package.json`)).toContain(`node ${asWords} dist/main.js`);
      expect(read(`docs/${service}-service.md`)).toContain(`\`${asWords}\``);
    },
  );

  it('`strata start` (an app outside the repository) runs the service with them', () => {
    const words = flags.map((flag) => `'${flag}'`).join(', ');
    expect(read('services/render/src/cli/service-process.ts')).toContain(
      `RENDER_NODE_FLAGS: readonly string[] = [${words}]`,
    );
  });

  it.each([
    [
      'the anchor benchmark (render)',
      'bench/render/run.sh',
      `exec node ${asWords} services/render`,
    ],
    [
      "the render benches' data + render pair",
      'bench/render/lib/pair.mjs',
      'baseFlags = SERVICE_NODE_FLAGS',
    ],
    [
      'the anchor benchmark (data)',
      'bench/render/lib/drive.mjs',
      "{ startData } from './pair.mjs'",
    ],
    ['the profiler', 'bench/render/profile.mjs', "{ startPair } from './lib/pair.mjs'"],
    ['the thread probe', 'bench/render/thread-probe.mjs', "{ startPair } from './lib/pair.mjs'"],
    [
      'the A/B scenario (ab-pairs, the drift guard)',
      'bench/render/scenario.mjs',
      '_BASE_FLAGS`], SERVICE_NODE_FLAGS)',
    ],
  ])('%s', (_where, path, expected) => {
    expect(read(path)).toContain(expected);
  });
});

describe('the relay starts with its node flags everywhere', () => {
  const relayFlags = RELAY_NODE_FLAGS.join(' ');

  it('are no incremental marking task, and npm start passes them', () => {
    expect(RELAY_NODE_FLAGS).toEqual(['--no-incremental-marking-task']);
    const relay = serviceCatalog({}).find((service) => service.name === 'relay');
    expect(relay?.nodeArgs).toEqual(RELAY_NODE_FLAGS);
  });

  it('its Dockerfile, npm start script and docs', () => {
    const execForm = ['node', ...RELAY_NODE_FLAGS, 'services/relay/dist/main.js'].map(
      (w) => `"${w}"`,
    );
    expect(read('services/relay/Dockerfile')).toContain(`CMD [${execForm.join(', ')}]`);
    expect(read('services/relay/package.json')).toContain(`node ${relayFlags} dist/main.js`);
    expect(read('docs/relay.md')).toContain(`\`${relayFlags}\``);
  });

  it.each([
    ['the relay benchmark', 'bench/relay/run.mjs', 'return [...RELAY_NODE_FLAGS, built]'],
    ['its GC watcher', 'bench/relay/gc-stats.mjs', "'node-args'], RELAY_NODE_FLAGS)"],
    [
      'its A/B scenario (ab-pairs, the drift guard)',
      'bench/relay/scenario.mjs',
      '_ARGS`], RELAY_NODE_FLAGS)',
    ],
    [
      'its profilers (CPU and allocation)',
      'bench/relay/lib/sampled-load.mjs',
      '...RELAY_NODE_FLAGS,',
    ],
    ['its native profiler', 'bench/relay/perf-native.mjs', '[...RELAY_NODE_FLAGS,'],
    ['the attack benchmark', 'bench/attack/run.mjs', '(RELAY_ARGS ?? RELAY_NODE_FLAGS)'],
  ])('%s', (_where, path, expected) => {
    expect(read(path)).toContain(expected);
  });
});
