/**
 * The scaffolder's decisions: the app's name and manifest, the dependencies with and without
 * local tarballs, the refusals, and the files it writes.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  appManifest,
  DEV_DEPENDENCIES,
  packageNameOf,
  platformDependencies,
  RUNTIME_DEPENDENCIES,
} from '../src/app-manifest.js';
import { strataTarballs } from '../src/packs-folder.js';
import { scaffold, ScaffoldError } from '../src/scaffold.js';
import { targetProblem } from '../src/target-folder.js';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'strata-scaffold-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const manifestOf = (path: string) =>
  JSON.parse(readFileSync(join(repository, path, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };

describe('the app manifest', () => {
  it('names the package after its folder', () => {
    expect(packageNameOf('My App')).toBe('my-app');
    expect(packageNameOf('shop_2')).toBe('shop-2');
    expect(packageNameOf('...')).toBe('strata-app');
  });

  it('depends on registry versions, or on every local tarball', () => {
    expect(platformDependencies('0.1.0', undefined)).toEqual({
      '@strata/render': '^0.1.0',
      '@strata/web': '^0.1.0',
    });
    const packs = new Map([
      ['@strata/config', 'packs/strata-config-0.1.0.tgz'],
      ['@strata/render', 'packs/strata-render-0.1.0.tgz'],
      ['@strata/web', 'packs/strata-web-0.1.0.tgz'],
    ]);
    expect(platformDependencies('0.1.0', packs)).toEqual({
      '@strata/config': 'file:packs/strata-config-0.1.0.tgz',
      '@strata/render': 'file:packs/strata-render-0.1.0.tgz',
      '@strata/web': 'file:packs/strata-web-0.1.0.tgz',
    });
    expect(() => platformDependencies('0.1.0', new Map())).toThrow(
      'no tarball of @strata/render, @strata/web',
    );
  });

  it('uses the versions this repository installs (so npm finds them in its cache)', () => {
    const root = manifestOf('.');
    const web = manifestOf('packages/web');
    const render = manifestOf('services/render');
    const webInstalls = { ...web.dependencies, ...web.devDependencies };
    expect(Object.entries(RUNTIME_DEPENDENCIES)).toEqual(
      Object.keys(RUNTIME_DEPENDENCIES).map((name) => [name, webInstalls[name]]),
    );
    const installed = { ...root.devDependencies, ...render.devDependencies };
    expect(Object.entries(DEV_DEPENDENCIES)).toEqual(
      Object.keys(DEV_DEPENDENCIES).map((name) => [name, installed[name]]),
    );
  });

  it('exports the app and its client from dist, and runs strata', () => {
    expect(appManifest('my-app', {})).toMatchObject({
      name: 'my-app',
      private: true,
      exports: { '.': './dist/index.js', './client': './dist/client.js' },
      scripts: { dev: 'strata dev', build: 'strata build', start: 'strata start' },
    });
  });
});

describe('strataTarballs', () => {
  it('reads the package of each @strata tarball and ignores the rest', () => {
    expect(
      strataTarballs([
        'strata-web-0.1.0.tgz',
        'strata-render-0.1.0.tgz',
        'create-strata-app-0.1.0.tgz',
        'notes.txt',
      ]),
    ).toEqual(
      new Map([
        ['@strata/render', 'strata-render-0.1.0.tgz'],
        ['@strata/web', 'strata-web-0.1.0.tgz'],
      ]),
    );
  });
});

describe('scaffold', () => {
  it('refuses a folder that is not empty, or a file', () => {
    const full = join(folder, 'full');
    mkdirSync(full);
    writeFileSync(join(full, 'notes.md'), '');
    expect(targetProblem(full)).toBe(
      `${full} is not empty (notes.md): choose a new or empty folder`,
    );
    expect(() => scaffold({ target: full })).toThrow(ScaffoldError);
    expect(targetProblem(join(full, 'notes.md'))).toContain('exists and is not a folder');
    expect(targetProblem(join(folder, 'new'))).toBeUndefined();
  });

  it('refuses a packs folder without the platform’s tarballs', () => {
    const packs = join(folder, 'empty-packs');
    mkdirSync(packs);
    expect(() => scaffold({ target: join(folder, 'app-a'), packs })).toThrow(
      'holds no @strata tarballs',
    );
  });

  it('writes the template with its dot-files, the README named, and a .env of its own', () => {
    const { directory, name } = scaffold({ target: join(folder, 'Shop') });
    expect(name).toBe('shop');
    const files = ['.gitignore', '.dockerignore', 'Dockerfile', 'src/index.ts'];
    expect(files.filter((file) => !existsSync(join(directory, file)))).toEqual([]);
    expect(readFileSync(join(directory, 'README.md'), 'utf8')).toMatch(/^# shop\n/);
    const env = readFileSync(join(directory, '.env'), 'utf8');
    expect(env).toMatch(/^ACTION_SALT=[0-9a-f]{48}$/m);
    expect(env).toContain('PUBLIC_ORIGINS=http://localhost:3000');
    const other = readFileSync(
      join(scaffold({ target: join(folder, 'other') }).directory, '.env'),
      'utf8',
    );
    expect(other).not.toBe(env);
  });
});
