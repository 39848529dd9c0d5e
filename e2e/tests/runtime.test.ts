/**
 * One Node release line everywhere (docs/development.md, "Runtime"): the `node` devDependency that
 * npm scripts run on, `engines` (the root's and every published package's), the types, every
 * service image, the image a new app builds from and the one the infra checks run in pods.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUNTIME_MAJOR, RUNTIME_VERSION } from '../../scripts/stack/runtime.mjs';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const manifest = JSON.parse(read('package.json')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};

describe('the runtime', () => {
  it('is an exact, current LTS release of the node package, and these tests run on it', () => {
    expect(RUNTIME_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(RUNTIME_MAJOR).toBeGreaterThanOrEqual(24);
    expect(RUNTIME_MAJOR % 2).toBe(0);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(RUNTIME_MAJOR);
  });

  it('is what engines asks for and what the types describe', () => {
    expect(manifest.engines.node).toBe(`>=${RUNTIME_MAJOR}`);
    expect(manifest.devDependencies['@types/node']?.split('.')[0]).toBe(String(RUNTIME_MAJOR));
  });

  it.each(readdirSync(new URL('../../services', import.meta.url)))(
    'is the base of every stage of the %s image',
    (service) => {
      const bases = [...read(`services/${service}/Dockerfile`).matchAll(/^FROM (\S+)/gm)].map(
        (match) => match[1],
      );
      expect(bases.length).toBeGreaterThan(0);
      expect(new Set(bases)).toEqual(new Set([`node:${RUNTIME_MAJOR}-bookworm-slim`]));
    },
  );

  it.each(
    [
      ...readdirSync(new URL('../../packages', import.meta.url)).map((name) => `packages/${name}`),
      'services/render',
    ].filter(
      (folder) => !(JSON.parse(read(`${folder}/package.json`)) as { private?: boolean }).private,
    ),
  )('is what the published %s asks for', (folder) => {
    const published = JSON.parse(read(`${folder}/package.json`)) as { engines?: { node?: string } };
    expect(published.engines?.node).toBe(`>=${RUNTIME_MAJOR}`);
  });

  it.each([
    'packages/create-strata-app/template/Dockerfile',
    'infra/checks/src/redis/docker-pods.ts',
  ])('is the node image %s names', (path) => {
    const images = [...read(path).matchAll(/\bnode:(\d[\w.-]*)/g)].map((match) => match[1]);
    expect(images.length).toBeGreaterThan(0);
    expect(new Set(images)).toEqual(new Set([`${RUNTIME_MAJOR}-bookworm-slim`]));
  });

  it('is named in the README’s developer line', () => {
    expect(read('README.md')).toContain(`Node ${RUNTIME_MAJOR}`);
  });
});
