// Stages, inside the render image's build, what its runtime holds: the render service, the app
// (or apps) given, and the workspaces they use at run time, each with the files `npm pack` would
// publish (its `files`), so an app of this repository runs as an installed package would.
//   node render-runtime.mjs <out> <app package>...
//   <out>/manifests  the root package.json (only those workspaces, no scripts or dev tools),
//                    package-lock.json and their package.json files: what `npm ci` reads
//   <out>/files      their published files
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [out, ...apps] = process.argv.slice(2);
if (!out || apps.length === 0) {
  console.error('usage: render-runtime.mjs <out dir> <app package>...');
  process.exit(64);
}
const npm = (args) => execFileSync('npm', args, { encoding: 'utf8' });
const workspaces = new Map(
  JSON.parse(npm(['query', '.workspace', '--json'])).map((w) => [w.name, w.location]),
);
const unknown = apps.filter((app) => !workspaces.has(app));
if (unknown.length > 0) throw new Error(`not packages of this repository: ${unknown.join(', ')}`);

// The render service, the apps, and every workspace their dependencies reach.
const needed = new Set();
const visit = (name) => {
  if (needed.has(name) || !workspaces.has(name)) return;
  needed.add(name);
  const manifest = JSON.parse(readFileSync(join(workspaces.get(name), 'package.json'), 'utf8'));
  for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency);
};
for (const name of ['@strata/render', ...apps]) visit(name);
const dirs = [...needed].map((name) => workspaces.get(name));

const root = JSON.parse(readFileSync('package.json', 'utf8'));
root.workspaces = dirs;
delete root.devDependencies;
delete root.scripts;
mkdirSync(join(out, 'manifests'), { recursive: true });
writeFileSync(join(out, 'manifests/package.json'), `${JSON.stringify(root, null, 2)}\n`);
cpSync('package-lock.json', join(out, 'manifests/package-lock.json'));
const packed = JSON.parse(
  npm(['pack', '--dry-run', '--json', '--ignore-scripts', ...dirs.flatMap((d) => ['-w', d])]),
);
for (const [index, dir] of dirs.entries()) {
  cpSync(join(dir, 'package.json'), join(out, 'manifests', dir, 'package.json'));
  for (const { path } of packed[index].files) {
    mkdirSync(dirname(join(out, 'files', dir, path)), { recursive: true });
    cpSync(join(dir, path), join(out, 'files', dir, path));
  }
}
console.log(`render runtime: ${dirs.join(' ')}`);
