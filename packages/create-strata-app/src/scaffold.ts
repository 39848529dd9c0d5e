/**
 * Writes a new app: the template's files (dot-files are stored without their dot, since npm
 * leaves `.gitignore` out of tarballs), its package.json, a .env with this machine's secrets
 * (a random ACTION_SALT, PUBLIC_ORIGINS for localhost) and, with packs, a copy of the tarballs
 * in packs/ so the folder (and its Docker build context) installs without the registry.
 */
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  appManifest,
  packageNameOf,
  PLATFORM_PACKAGES,
  platformDependencies,
} from './app-manifest.js';
import { strataTarballs } from './packs-folder.js';
import { targetProblem } from './target-folder.js';

const TEMPLATE = fileURLToPath(new URL('../template', import.meta.url));
const OWN_MANIFEST = fileURLToPath(new URL('../package.json', import.meta.url));
const DOT_FILES = ['gitignore', 'dockerignore'];

/** A target the scaffolder refuses (not empty, a file, no tarballs): the message says why. */
export class ScaffoldError extends Error {
  override readonly name = 'ScaffoldError';
}

export interface ScaffoldOptions {
  /** Folder to create the app in (missing or empty). */
  readonly target: string;
  /** Folder holding `npm pack` tarballs of the platform, to depend on instead of a registry. */
  readonly packs?: string | undefined;
}

/** What was written. */
export interface ScaffoldResult {
  readonly directory: string;
  readonly name: string;
}

export function scaffold({ target, packs }: ScaffoldOptions): ScaffoldResult {
  const directory = resolve(target);
  const problem = targetProblem(directory);
  if (problem) throw new ScaffoldError(problem);
  const name = packageNameOf(basename(directory));
  const version = (JSON.parse(readFileSync(OWN_MANIFEST, 'utf8')) as { version: string }).version;
  const tarballs = packs === undefined ? undefined : copyTarballs(resolve(packs), directory);
  mkdirSync(directory, { recursive: true });
  cpSync(TEMPLATE, directory, { recursive: true });
  for (const file of DOT_FILES) renameSync(join(directory, file), join(directory, `.${file}`));
  const readme = join(directory, 'README.md');
  writeFileSync(readme, readFileSync(readme, 'utf8').replaceAll('__APP_NAME__', name));
  const manifest = appManifest(name, platformDependencies(version, tarballs));
  writeFileSync(join(directory, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(directory, '.env'),
    [
      '# This machine only (git-ignored): what `strata start` needs in production.',
      `ACTION_SALT=${randomBytes(24).toString('hex')}`,
      'PUBLIC_ORIGINS=http://localhost:3000,http://127.0.0.1:3000',
      '',
    ].join('\n'),
  );
  return { directory, name };
}

/** Copies the platform's tarballs into `<app>/packs`; package name → `packs/<file>`. */
function copyTarballs(from: string, directory: string): Map<string, string> {
  let files: string[];
  try {
    files = readdirSync(from);
  } catch {
    throw new ScaffoldError(`${from} (--packs or STRATA_PACKS) is not a folder`);
  }
  const found = strataTarballs(files);
  if (found.size === 0)
    throw new ScaffoldError(`${from} holds no @strata tarballs (npm run pack writes them)`);
  const missing = PLATFORM_PACKAGES.filter((name) => !found.has(name));
  if (missing.length > 0)
    throw new ScaffoldError(`${from} holds no tarball of ${missing.join(' or ')}`);
  mkdirSync(join(directory, 'packs'), { recursive: true });
  const paths = new Map<string, string>();
  for (const [name, file] of found) {
    copyFileSync(join(from, file), join(directory, 'packs', file));
    paths.set(name, `packs/${file}`);
  }
  return paths;
}
