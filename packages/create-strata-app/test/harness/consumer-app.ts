/**
 * A consumer's app, outside the repository: `npm run pack`'s tarballs, `create-strata-app` run
 * from its tarball with them, and an install from them with no network (the package-lock.json
 * derived from the repository's, `npm ci --offline` against a registry that does not answer).
 * Shared by the consumer test and the compose pass's image test.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { offlineLockfile, type LocalTarball, type Lockfile } from './offline-lockfile.js';

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../../../../', import.meta.url));
// A closed port: any request npm makes to a registry fails at once.
export const NO_REGISTRY = 'http://127.0.0.1:9';

/** Packs every publishable package into `<folder>/packs`, scaffolds `<folder>/my-app` with them. */
export async function scaffoldFromPacks(folder: string, env: NodeJS.ProcessEnv): Promise<string> {
  const packs = join(folder, 'packs');
  const app = join(folder, 'my-app');
  await run('node', ['scripts/pack-packages.mjs', '--no-build', packs], { cwd: repository });
  const scaffolder = readdirSync(packs).find((file) => file.startsWith('create-strata-app-'))!;
  await run(
    'npm',
    ['exec', '--yes', `--package=${join(packs, scaffolder)}`, '--', 'create-strata-app', app],
    { cwd: folder, env: { ...env, STRATA_PACKS: packs } },
  );
  return app;
}

/** Writes the app's derived package-lock.json and runs `npm ci --offline` with no registry. */
export async function installOffline(app: string, env: NodeJS.ProcessEnv): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const tarballs = new Map<string, LocalTarball>();
  for (const [name, spec] of Object.entries(manifest.dependencies))
    if (spec.startsWith('file:')) tarballs.set(name, await localTarball(app, spec));
  const repositoryLock = JSON.parse(
    readFileSync(join(repository, 'package-lock.json'), 'utf8'),
  ) as Lockfile;
  const lockfile = offlineLockfile(repositoryLock, manifest, tarballs);
  writeFileSync(join(app, 'package-lock.json'), `${JSON.stringify(lockfile, null, 2)}\n`);
  await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], {
    cwd: app,
    env: { ...env, npm_config_registry: NO_REGISTRY },
  });
}

/** A tarball's package.json (read with tar) and its sha512 integrity, as npm records them. */
async function localTarball(app: string, spec: string): Promise<LocalTarball> {
  const file = join(app, spec.slice('file:'.length));
  const { stdout } = await run('tar', ['-xzOf', file, 'package/package.json'], {
    maxBuffer: 1 << 20,
  });
  const digest = createHash('sha512').update(readFileSync(file)).digest('base64');
  return {
    manifest: JSON.parse(stdout) as LocalTarball['manifest'],
    resolved: spec,
    integrity: `sha512-${digest}`,
  };
}
