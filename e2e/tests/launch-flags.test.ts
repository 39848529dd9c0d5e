/**
 * The services' node flags (docs/render-service.md, docs/data-service.md and docs/relay.md,
 * "Memory") are set by every path that starts them: deployments and `npm start` run with them,
 * and the benchmarks must start the services as deployments do.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  RELAY_NODE_FLAGS,
  RENDER_SERVICE_NODE_FLAGS,
  SERVICE_NODE_FLAGS,
  serviceCatalog,
} from '../../scripts/stack/services.mjs';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const flagsOf = { data: SERVICE_NODE_FLAGS, render: RENDER_SERVICE_NODE_FLAGS };
const renderWords = RENDER_SERVICE_NODE_FLAGS.join(' ');

describe('the render and data services start with their node flags everywhere', () => {
  it('are no memory reducer and a full-size young generation, for both', () => {
    expect(SERVICE_NODE_FLAGS).toEqual([
      '--no-memory-reducer',
      '--min-semi-space-size=64',
      '--max-semi-space-size=64',
    ]);
    expect(RENDER_SERVICE_NODE_FLAGS).toEqual(SERVICE_NODE_FLAGS);
  });

  it('npm start passes each service its own', () => {
    const started = serviceCatalog({}).filter((service) => service.name in flagsOf);
    expect(started.map((service) => [service.name, service.nodeArgs])).toEqual([
      ['data', SERVICE_NODE_FLAGS],
      ['render', RENDER_SERVICE_NODE_FLAGS],
    ]);
  });

  it.each(['render', 'data'] as const)(
    'the %s service: its Dockerfile, npm start script and docs',
    (service) => {
      const flags = flagsOf[service];
      const asWords = flags.join(' ');
      const execForm = ['node', ...flags, `services/${service}/dist/main.js`].map((w) => `"${w}"`);
      expect(read(`services/${service}/Dockerfile`)).toContain(`CMD [${execForm.join(', ')}]`);
      expect(read(`services/${service}/package.json`)).toContain(`node ${asWords} dist/main.js`);
      expect(read(`docs/${service}-service.md`).replace(/\s+/g, ' ')).toContain(`\`${asWords}\``);
    },
  );

  it('`strata start` (an app outside the repository) runs the service with them', async () => {
    const { RENDER_NODE_FLAGS } = await import('../../services/render/src/cli/service-process.js');
    expect(RENDER_NODE_FLAGS).toEqual(RENDER_SERVICE_NODE_FLAGS);
  });

  it.each([
    [
      'the anchor benchmark (render)',
      'bench/render/run.sh',
      `exec node ${renderWords} services/render`,
    ],
    [
      "the render benches' data + render pair (data)",
      'bench/render/lib/pair.mjs',
      'baseFlags = SERVICE_NODE_FLAGS',
    ],
    [
      "the render benches' data + render pair (render)",
      'bench/render/lib/pair.mjs',
      'baseFlags = RENDER_SERVICE_NODE_FLAGS',
    ],
    [
      'the anchor benchmark (data)',
      'bench/render/lib/drive.mjs',
      "{ startData } from './pair.mjs'",
    ],
    ['the profiler', 'bench/render/profile.mjs', "{ startPair } from './lib/pair.mjs'"],
    ['the thread probe', 'bench/render/thread-probe.mjs', "{ startPair } from './lib/pair.mjs'"],
    [
      'the A/B scenario (ab-pairs, the drift guard): render',
      'bench/render/scenario.mjs',
      'flagsOf(baseFlags, RENDER_SERVICE_NODE_FLAGS)',
    ],
    [
      'the A/B scenario (ab-pairs, the drift guard): data',
      'bench/render/scenario.mjs',
      'flagsOf(baseFlags, SERVICE_NODE_FLAGS)',
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
