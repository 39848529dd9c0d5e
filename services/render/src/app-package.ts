/**
 * Finds the installed package RENDER_APP names the way Node finds any package: in
 * `node_modules` of the app root or of a directory above it. The root is the directory the
 * service is started from (or RENDER_APP_ROOT), never the render service's own folder, so an app
 * is served without being listed among the render service's dependencies. The root may also be
 * the app's own folder (its package.json has that name): how `strata start` serves the app it
 * runs in, as Node's self-reference lets a package import itself by name.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '@strata/config';
import { exports as resolveExports } from 'resolve.exports';

/** An installed package: where it is and its manifest. */
export interface InstalledPackage {
  readonly name: string;
  readonly directory: string;
  readonly manifest: { readonly exports?: unknown; readonly main?: string };
}

/** The `node_modules/<name>` directories Node would try from `root` upwards, nearest first. */
export function packageCandidates(name: string, root: string): string[] {
  const candidates: string[] = [];
  for (let dir = root; ; dir = dirname(dir)) {
    candidates.push(join(dir, 'node_modules', name));
    if (dirname(dir) === dir) return candidates;
  }
}

/** The package.json of `directory` when it is the package `name`'s, else undefined. */
function ownManifest(name: string, directory: string): InstalledPackage['manifest'] | undefined {
  const file = join(directory, 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown };
    return manifest.name === name ? (manifest as InstalledPackage['manifest']) : undefined;
  } catch {
    // Not JSON: not the app's folder (node_modules is still searched).
    return undefined;
  }
}

/** The package `name` as installed for `root`; a ConfigError saying where it was looked for. */
export function findInstalledPackage(name: string, root: string): InstalledPackage {
  const own = ownManifest(name, root);
  if (own) return { name, directory: realpathSync(root), manifest: own };
  const candidates = packageCandidates(name, root);
  const found = candidates.find((candidate) => existsSync(join(candidate, 'package.json')));
  if (!found)
    throw new ConfigError('render service', [
      `RENDER_APP: ${name} is not installed: looked for it in ${candidates[0]} and the node_modules of every directory above ${root} (install it there, or set RENDER_APP_ROOT to the directory it is installed for)`,
    ]);
  // Workspaces and `npm link` install a symbolic link: the real folder is the package's.
  const directory = realpathSync(found);
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
  return { name, directory, manifest };
}

/** The file URL of the package's export `subpath` ('.' or './client') as `import` sees it. */
export function exportUrl(pkg: InstalledPackage, subpath: '.' | './client'): string {
  let targets: readonly string[] | undefined;
  try {
    targets = resolveExports(pkg.manifest, subpath, { conditions: ['node'] }) ?? undefined;
  } catch {
    // resolve.exports throws for a subpath the map does not export.
    targets = undefined;
  }
  // A package without `exports` has only its main module.
  if (pkg.manifest.exports === undefined && subpath === '.')
    targets = [pkg.manifest.main ?? 'index.js'];
  const target = targets?.[0];
  if (!target)
    throw new ConfigError('render service', [
      `RENDER_APP: ${pkg.name} has no ${subpath === '.' ? 'main' : './client'} export (in ${pkg.directory}/package.json)`,
    ]);
  return pathToFileURL(join(pkg.directory, target)).href;
}
