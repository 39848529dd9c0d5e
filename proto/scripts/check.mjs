// CI gate for the contracts: buf lint, generated code up to date, and no breaking change
// against any earlier committed version of proto/ (so nothing landed is ever broken).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const protoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(protoRoot, '..', 'node_modules', '.bin', name);
const run = (cmd, args, opts = {}) =>
  execFileSync(cmd, args, { cwd: protoRoot, encoding: 'utf8', ...opts });

run(bin('buf'), ['lint'], { stdio: 'inherit' });
console.log('proto: buf lint clean');

const fresh = mkdtempSync(join(tmpdir(), 'strata-gen-'));
try {
  run('node', ['scripts/generate.mjs', join(fresh, 'gen')], { stdio: 'inherit', cwd: protoRoot });
  try {
    run('diff', ['-r', join(fresh, 'gen'), join(protoRoot, 'src/gen')]);
  } catch (error) {
    console.error(String(error.stdout).slice(0, 4000));
    console.error('proto: src/gen is stale. Run `npm run gen:proto` and commit the result.');
    process.exit(1);
  }
  console.log('proto: generated code is up to date');
} finally {
  rmSync(fresh, { recursive: true, force: true });
}

// Every commit that changed proto/ is a version someone may have deployed; check against all
// of them (newest first, at most 20), so a multi-commit change cannot slip a break through.
let commits = [];
try {
  const head = run('git', ['rev-parse', 'HEAD']).trim();
  commits = run('git', ['log', '--format=%H', '-n', '20', 'HEAD', '--', '.'])
    .split('\n')
    .filter((sha) => sha && sha !== head);
  const dirty = run('git', ['status', '--porcelain', '--', '.']).trim() !== '';
  if (dirty) commits = [head, ...commits];
} catch {
  console.log('proto: not a git checkout; breaking-change check skipped');
}
const gitRoot = commits.length ? run('git', ['rev-parse', '--show-toplevel']).trim() : '';
for (const sha of commits) {
  const against = `${gitRoot}/.git#ref=${sha},subdir=proto`;
  try {
    run(bin('buf'), ['breaking', '--against', against], { stdio: 'pipe' });
  } catch (error) {
    console.error(String(error.stdout) + String(error.stderr));
    console.error(`proto: breaking change against ${sha.slice(0, 10)}`);
    process.exit(1);
  }
}
console.log(`proto: no breaking change against ${commits.length} earlier version(s)`);
