/**
 * The chart ships the repository's own gateway and Redis files, not copies: files/ holds
 * symbolic links into infra/gateway and infra/redis, helm follows them, and the rendered
 * ConfigMaps hold the files byte for byte, mounted where nginx and Redis read them.
 */
import { readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { describe, expect, it } from 'vitest';
import { CHART_DIRECTORY, REPOSITORY_ROOT } from '../../src/helm/chart-paths.js';
import { objectNamed, renderScenario } from './rendered-scenarios.js';

const LINKED = {
  'nginx.conf': 'infra/gateway/nginx.conf',
  'browser-headers.conf': 'infra/gateway/browser-headers.conf',
  'start.sh': 'infra/gateway/start.sh',
  'redis.conf': 'infra/redis/redis.conf',
  'redis-auth.sh': 'infra/redis/redis-auth.sh',
  'sentinel.conf': 'infra/redis/sentinel.conf',
  'sentinel-node.sh': 'infra/redis/sentinel-node.sh',
} as const;

const repositoryFile = (path: string) => readFile(join(REPOSITORY_ROOT, path), 'utf8');

describe('files shared with the compose stack', () => {
  it.each(Object.entries(LINKED))('files/%s links to %s', async (name, target) => {
    const link = await readlink(join(CHART_DIRECTORY, 'files', name));
    expect(join(CHART_DIRECTORY, 'files', link)).toBe(join(REPOSITORY_ROOT, target));
  });

  it('the gateway ConfigMap holds the repository files byte for byte', async () => {
    const render = await renderScenario('defaults');
    const configMap = objectNamed<ConfigMap>(render, 'ConfigMap', 'strata-gateway');
    expect(Object.keys(configMap.data ?? {}).sort()).toEqual([
      'browser-headers.conf',
      'nginx.conf',
      'start.sh',
    ]);
    const names = ['nginx.conf', 'browser-headers.conf', 'start.sh'] as const;
    const expected = await Promise.all(names.map((name) => repositoryFile(LINKED[name])));
    expect(names.map((name) => configMap.data?.[name])).toEqual(expected);
  });

  it('the bundled Redis ConfigMap holds the repository files byte for byte', async () => {
    const render = await renderScenario('bundled');
    const configMap = objectNamed<ConfigMap>(render, 'ConfigMap', 'strata-redis');
    const names = ['redis.conf', 'redis-auth.sh'] as const;
    const expected = await Promise.all(names.map((name) => repositoryFile(LINKED[name])));
    expect(names.map((name) => configMap.data?.[name])).toEqual(expected);
  });

  it('with Sentinel, the Redis ConfigMap also holds the Sentinel files byte for byte', async () => {
    const render = await renderScenario('redis-sentinel');
    const configMap = objectNamed<ConfigMap>(render, 'ConfigMap', 'strata-redis');
    const names = ['redis.conf', 'redis-auth.sh', 'sentinel.conf', 'sentinel-node.sh'] as const;
    const expected = await Promise.all(names.map((name) => repositoryFile(LINKED[name])));
    expect(names.map((name) => configMap.data?.[name])).toEqual(expected);
  });

  it('nginx runs start.sh with the files mounted by subPath where it reads them', async () => {
    const render = await renderScenario('defaults');
    const gateway = objectNamed<Deployment>(render, 'Deployment', 'strata-gateway');
    const [nginx] = gateway.spec?.template.spec?.containers ?? [];
    expect(nginx?.command).toEqual(['sh', '/etc/nginx/start.sh']);
    expect(nginx?.volumeMounts).toEqual(
      expect.arrayContaining(
        ['nginx.conf', 'browser-headers.conf', 'start.sh'].map((name) => ({
          name: 'config',
          mountPath: `/etc/nginx/${name}`,
          subPath: name,
          readOnly: true,
        })),
      ),
    );
    expect(gateway.spec?.template.spec?.securityContext?.runAsUser).toBe(101);
  });
});
