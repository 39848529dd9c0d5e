// Makes a fresh clone runnable: installs dependencies when node_modules is missing or older
// than package-lock.json, then builds every workspace (TypeScript 7 takes a few seconds).
// Uses only Node built-ins, because it runs before anything is installed.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const installedMarker = join(root, 'node_modules/.package-lock.json');
const lockfile = join(root, 'package-lock.json');

const run = (command) => execSync(command, { cwd: root, stdio: 'inherit' });

const stale =
  !existsSync(installedMarker) || statSync(installedMarker).mtimeMs < statSync(lockfile).mtimeMs;
if (stale) {
  console.log('[strata] installing dependencies (npm ci)…');
  run('npm ci --no-audit --no-fund');
}
if (process.env.STRATA_SKIP_BUILD !== '1') {
  console.log('[strata] building workspaces…');
  run('npm run build --silent');
}
