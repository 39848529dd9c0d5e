import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findInstalledPackage } from './app-package.js';

const folder = mkdtempSync(join(tmpdir(), 'strata-own-app-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function writeManifest(directory: string, manifest: object): void {
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, 'package.json'), JSON.stringify(manifest));
}

describe('findInstalledPackage', () => {
  it('finds the app in its own folder (the root is the package itself)', () => {
    const app = join(folder, 'own');
    writeManifest(app, { name: 'my-app', exports: { '.': './dist/index.js' } });
    const found = findInstalledPackage('my-app', app);
    expect(found.directory).toBe(app);
    expect(found.manifest.exports).toEqual({ '.': './dist/index.js' });
  });

  it('looks in node_modules when the root is another package', () => {
    const root = join(folder, 'other');
    writeManifest(root, { name: 'someone-else' });
    writeManifest(join(root, 'node_modules/my-app'), { name: 'my-app' });
    expect(findInstalledPackage('my-app', root).directory).toBe(join(root, 'node_modules/my-app'));
  });

  it('ignores a root package.json that is not JSON and says where it looked', () => {
    const root = join(folder, 'broken');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'package.json'), '{ not json');
    expect(() => findInstalledPackage('my-app', root)).toThrow(
      `RENDER_APP: my-app is not installed: looked for it in ${root}/node_modules/my-app`,
    );
  });
});
