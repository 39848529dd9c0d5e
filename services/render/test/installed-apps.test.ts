/**
 * The render service serves an app installed for the directory it starts in, not one of its own
 * dependencies: the repository's apps are found like an app installed outside it, and a missing
 * app, a package that is not an app or an app without its browser bundle is refused with a
 * message that says where render looked.
 */
import { ConfigError } from '@strata/config';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadApp, loadClientAssets } from '../src/index.js';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const renderManifest = JSON.parse(
  readFileSync(join(repositoryRoot, 'services/render/package.json'), 'utf8'),
) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };

// A folder outside the repository, as an app's own project would be.
const outside = mkdtempSync(join(tmpdir(), 'strata-installed-app-'));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

/** Writes a package into `<outside>/node_modules/<name>`; returns its folder. */
function install(name: string, files: Record<string, string>): string {
  const directory = join(outside, 'node_modules', name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(directory, file, '..'), { recursive: true });
    writeFileSync(join(directory, file), text);
  }
  return directory;
}

const helloManifest = JSON.stringify({
  name: '@acme/hello',
  type: 'module',
  exports: { '.': { import: './server.js' }, './client': { import: './client.js' } },
});
// Only the shape render checks before starting an app: no Strata import needed.
const helloServer = `export default { name: 'hello', start: async () => ({}) };`;
const helloClient = 'export default { byId: new Map() };';

describe('an app installed for the directory render starts in', () => {
  it('is found although the render service does not depend on it', async () => {
    expect(Object.keys(renderManifest.dependencies)).not.toContain('@strata/app-notes');
    expect(Object.keys(renderManifest.devDependencies)).not.toContain('@strata/app-notes');
    const { definition, directory } = await loadApp('@strata/app-notes', repositoryRoot);
    expect(definition.name).toBe('notes');
    expect(directory).toBe(join(repositoryRoot, 'apps/notes'));
    expect(loadClientAssets('@strata/app-notes', directory).scripts[0]).toMatch(
      /^\/assets\/client-\w+\.js$/,
    );
  });

  it('is found in node_modules of a directory above the one render starts in', async () => {
    const directory = install('@acme/hello', {
      'package.json': helloManifest,
      'server.js': helloServer,
      'client.js': helloClient,
    });
    const nested = join(outside, 'deploy', 'eu');
    mkdirSync(nested, { recursive: true });
    const loaded = await loadApp('@acme/hello', nested);
    expect(loaded.definition.name).toBe('hello');
    expect(loaded.clientRoutes.byId.size).toBe(0);
    expect(loaded.directory).toBe(directory);
  });

  it('is refused without its browser bundle, naming the file that is missing', () => {
    const directory = join(outside, 'node_modules/@acme/hello');
    expect(() => loadClientAssets('@acme/hello', directory)).toThrow(
      `RENDER_APP: @acme/hello has no client bundle: ${directory}/dist/public/assets/manifest.json is missing`,
    );
    install('@acme/hello', {
      'dist/public/assets/manifest.json': JSON.stringify({
        client: '/assets/client-abc.js',
        shared: ['/assets/chunk-def.js'],
        hash: 'abc',
      }),
    });
    expect(loadClientAssets('@acme/hello', directory)).toEqual({
      directory: `${directory}/dist/public/assets/`,
      scripts: ['/assets/client-abc.js', '/assets/chunk-def.js'],
      contentHash: 'abc',
    });
  });

  it('is refused when not installed, saying where it was looked for', async () => {
    const loading = loadApp('@acme/missing', outside);
    await expect(loading).rejects.toBeInstanceOf(ConfigError);
    await expect(loading).rejects.toThrow(
      `RENDER_APP: @acme/missing is not installed: looked for it in ${outside}/node_modules/@acme/missing and the node_modules of every directory above ${outside}`,
    );
  });

  it('is refused when the package is not a Strata app or lacks its client export', async () => {
    install('@acme/not-an-app', {
      'package.json': JSON.stringify({ name: '@acme/not-an-app', type: 'module' }),
      'index.js': 'export default 42;',
    });
    await expect(loadApp('@acme/not-an-app', outside)).rejects.toThrow(
      'RENDER_APP: @acme/not-an-app is not a Strata app: its default export is not an object',
    );
    install('@acme/server-only', {
      'package.json': JSON.stringify({
        name: '@acme/server-only',
        type: 'module',
        exports: { '.': './server.js' },
      }),
      'server.js': helloServer,
    });
    await expect(loadApp('@acme/server-only', outside)).rejects.toThrow(
      /RENDER_APP: @acme\/server-only has no \.\/client export/,
    );
  });
});
