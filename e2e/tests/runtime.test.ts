/**
 * One Node release line everywhere (docs/development.md, "Runtime"): the `node` devDependency that
 * npm scripts run on, `engines`, the types, and every service image.
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

  it('is named in the README’s developer line', () => {
    expect(read('README.md')).toContain(`Node ${RUNTIME_MAJOR}`);
  });
});
