// Rewrites the root package.json inside an image build (never in the repository) so `npm ci`
// installs only what that stage needs while still verifying package-lock.json:
//   node image-manifest.mjs build                      keep every workspace but the test-only
//                                                      ones, drop the root's lint/test tools
//                                                      (not needed to compile)
//   node image-manifest.mjs runtime <dir> [<dir>...]   keep only these workspaces and no root
//                                                      devDependencies: `npm ci --omit=dev` then
//                                                      installs exactly their production closure
import { readFileSync, writeFileSync } from 'node:fs';

const [mode, ...workspaces] = process.argv.slice(2);
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
const TOOLS = ['node', 'oxlint', 'prettier', 'pino-pretty', 'vitest'];
// Checks of the deployment files: no image builds or runs them, so their manifests are not
// copied into the build context.
const TEST_ONLY_WORKSPACES = ['infra/checks'];

if (mode === 'build') {
  for (const tool of TOOLS) delete manifest.devDependencies?.[tool];
  manifest.workspaces = manifest.workspaces.filter((dir) => !TEST_ONLY_WORKSPACES.includes(dir));
} else if (mode === 'runtime' && workspaces.length > 0) {
  const unknown = workspaces.filter((dir) => !manifest.workspaces.includes(dir));
  if (unknown.length > 0) throw new Error(`not workspaces of this repository: ${unknown}`);
  manifest.workspaces = workspaces;
  delete manifest.devDependencies;
} else {
  console.error('usage: image-manifest.mjs build | runtime <workspace dir>...');
  process.exit(64);
}
delete manifest.scripts;
writeFileSync('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
