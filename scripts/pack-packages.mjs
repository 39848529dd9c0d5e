// `npm run pack [-- [--no-build] <destination>]`: builds the publishable workspaces (scripts/pack/
// publishable.mjs) and writes each one's tarball, as `npm publish` would upload it, to .packs/
// (git-ignored) or the destination given; one line per package. `--no-build` packs the dist
// folders as they are: the tests use it (`npm test` has just built everything), because a build
// rewrites dist files that tests running beside them are reading.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishableWorkspaces } from './pack/publishable.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const build = !argv.includes('--no-build');
const unknown = argv.filter((arg) => arg.startsWith('-') && arg !== '--no-build');
if (unknown.length > 0) {
  console.error(
    `[pack] unknown option ${unknown[0]}; usage: npm run pack -- [--no-build] [destination]`,
  );
  process.exit(64);
}
const destination = resolve(root, argv.find((arg) => !arg.startsWith('-')) ?? '.packs');
const packages = publishableWorkspaces(root);
const workspaceFlags = packages.flatMap(({ manifest }) => ['--workspace', manifest.name]);
const npm = (args) => execFileSync('npm', args, { cwd: root, encoding: 'utf8' });

if (build) {
  console.log(`[pack] building ${packages.length} packages…`);
  npm(['run', 'build', '--silent', ...workspaceFlags]);
}
rmSync(destination, { recursive: true, force: true });
mkdirSync(destination, { recursive: true });
for (const { manifest } of packages) {
  // Scripts are not run: the build above is the one that counts.
  const [packed] = JSON.parse(
    npm([
      'pack',
      '--json',
      '--ignore-scripts',
      '--workspace',
      manifest.name,
      '--pack-destination',
      destination,
    ]),
  );
  const kB = (packed.size / 1000).toFixed(1);
  console.log(
    `[pack] ${packed.id} → ${relative(root, join(destination, packed.filename))} (${packed.entryCount} files, ${kB} kB)`,
  );
}
