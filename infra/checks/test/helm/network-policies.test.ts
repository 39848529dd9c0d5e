/**
 * The NetworkPolicies open exactly the paths docker-compose.yml's networks allow (edge, web,
 * cache, database) and the ones the stack needs, nothing else: computed from the rendered
 * policies and held against the compose file itself. The migration Job is the data service
 * (same image, same program); the `helm test` pod is a client of the gateway only.
 */
import { readFile } from 'node:fs/promises';
import type { NetworkPolicy } from 'kubernetes-types/networking/v1.js';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../src/helm/chart-paths.js';
import { composeNetworks, shareNetwork } from '../../src/helm/compose-networks.js';
import { openPaths, type NetworkPath } from '../../src/helm/network-paths.js';
import { withChanged } from './broken-objects.js';
import { renderScenario } from './rendered-scenarios.js';

/** The compose service each chart component is. */
const COMPOSE_SERVICE: Record<string, string> = {
  gateway: 'gateway',
  render: 'render',
  data: 'data',
  migration: 'data',
  relay: 'relay',
  postgresql: 'postgres',
  redis: 'redis',
};

let networks: Map<string, Set<string>>;

beforeAll(async () => {
  networks = composeNetworks(await readFile(join(REPOSITORY_ROOT, 'docker-compose.yml'), 'utf8'));
});

/** Paths between two compose services that share no network (the test pod's aside). */
function outsideCompose(paths: readonly NetworkPath[]): NetworkPath[] {
  return paths.filter((path) => {
    const [, from = '', to = ''] = /^(\S+) → ([^:]+):/.exec(path) ?? [];
    if (from === 'test') return path !== 'test → gateway:8080';
    return !shareNetwork(networks, COMPOSE_SERVICE[from] ?? from, COMPOSE_SERVICE[to] ?? to);
  });
}

describe('NetworkPolicies against docker-compose.yml', () => {
  it('reads the compose networks', () => {
    expect(networks.get('relay')).toEqual(new Set(['edge']));
    expect(networks.get('render')).toEqual(new Set(['web', 'cache']));
  });

  it('with the bundled databases, open exactly the stack’s paths', async () => {
    const { objects } = await renderScenario('bundled');
    const paths = openPaths(objects);
    expect(paths).toEqual([
      'data → gateway:8081',
      'data → postgresql:5432',
      'gateway → relay:3100',
      'gateway → render:3000',
      'migration → gateway:8081',
      'migration → postgresql:5432',
      'render → data:50051',
      'render → gateway:8081',
      'render → redis:6379',
      'test → gateway:8080',
    ]);
    expect(outsideCompose(paths)).toEqual([]);
  });

  it('with Redis through Sentinel and the relay’s shared limits, open exactly those paths', async () => {
    const { objects } = await renderScenario('redis-sentinel');
    expect(openPaths(objects)).toEqual([
      'data → gateway:8081',
      'gateway → relay:3100',
      'gateway → render:3000',
      'migration → gateway:8081',
      'redis → redis-sentinel:26379',
      'redis-sentinel → redis:6379',
      'relay → redis-sentinel:26379',
      'relay → redis:6379',
      'render → data:50051',
      'render → gateway:8081',
      'render → redis-sentinel:26379',
      'render → redis:6379',
      'test → gateway:8080',
    ]);
  });

  it('with external databases, leave only paths compose allows', async () => {
    const { objects } = await renderScenario('network-policies');
    expect(outsideCompose(openPaths(objects))).toEqual([]);
  });

  it('without policies everything is open, and the comparison says so', async () => {
    const { objects } = await renderScenario('defaults');
    expect(outsideCompose(openPaths(objects))).toEqual(
      expect.arrayContaining(['relay → render:3000', 'relay → data:50051']),
    );
  });

  it('a policy dropped and another widened are caught', async () => {
    const { objects } = await renderScenario('bundled');
    const withoutRedisPolicy = objects.filter(
      ({ object }) => !(object.kind === 'NetworkPolicy' && object.metadata.name === 'strata-redis'),
    );
    const widened = withChanged<NetworkPolicy>(
      withoutRedisPolicy,
      'NetworkPolicy',
      'strata-relay',
      (policy) => {
        policy.spec!.egress!.push({ ports: [{ port: 6379, protocol: 'TCP' }] });
      },
    );
    expect(outsideCompose(openPaths(widened))).toEqual([
      'redis → gateway:8080',
      'relay → redis:6379',
      'test → redis:6379',
    ]);
  });
});
