// The baseline checkout: resolved to a commit, extracted with `git archive` into a cache folder
// outside the working tree (no worktree is registered in the shared repository), installed and
// built once, and reused while it is marked ready.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { baselineRef } from './args.mjs';

const git = (repo, ...args) =>
  execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();

/** The last tag that looks like a release (v1.2.3), or null. */
function lastReleaseTag(repo) {
  const describe = spawnSync(
    'git',
    ['-C', repo, 'describe', '--tags', '--abbrev=0', '--match', 'v[0-9]*'],
    {
      encoding: 'utf8',
    },
  );
  return describe.status === 0 ? describe.stdout.trim() : null;
}

/** The baseline commit (full hash) for `asked`, bench/baseline or the last release tag. */
export function resolveBaseline(repo, asked) {
  const file = join(repo, 'bench/baseline');
  const ref = baselineRef({
    asked,
    recorded: existsSync(file) ? readFileSync(file, 'utf8') : undefined,
    lastTag: lastReleaseTag(repo),
  });
  if (!ref) throw new Error('no baseline: pass --baseline, or write a commit into bench/baseline');
  const commit = spawnSync(
    'git',
    ['-C', repo, 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`],
    {
      encoding: 'utf8',
    },
  );
  if (commit.status !== 0) throw new Error(`baseline ${ref} is not a commit in this repository`);
  return commit.stdout.trim();
}

/** Where built baselines are kept: STRATA_BENCH_CACHE, else the user's cache folder. */
export const cacheRoot = (env = process.env) =>
  env.STRATA_BENCH_CACHE || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'strata-bench');

function run(command, args, cwd, say) {
  say(`[guard] ${command} ${args.join(' ')} (in ${cwd})`);
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}`);
}

/** The working tree's commit (short) and whether it has uncommitted changes. */
export const workingTree = (repo) => ({
  head: git(repo, 'rev-parse', '--short', 'HEAD'),
  dirty: git(repo, 'status', '--porcelain', '--untracked-files=no') !== '',
});

/** Builds the working tree (the B side) as it is now. */
export const buildWorkingTree = (repo, say) => run('npm', ['run', 'build', '--silent'], repo, say);

/** A built checkout of `commit`; made, installed and built on first use, then reused. */
export function builtBaseline(repo, commit, say = console.log) {
  const dir = join(cacheRoot(), `baseline-${commit}`);
  const ready = join(dir, '.strata-bench-ready');
  if (existsSync(ready)) {
    say(`[guard] baseline ${commit.slice(0, 7)}: reusing ${dir}`);
    return dir;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  say(`[guard] baseline ${commit.slice(0, 7)}: extracting into ${dir}`);
  const archive = spawnSync('git', ['-C', repo, 'archive', '--format=tar', commit], {
    maxBuffer: 1 << 30,
  });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed`);
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`could not extract ${commit} into ${dir}`);
  run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], dir, say);
  run('npm', ['run', 'build', '--silent'], dir, say);
  writeFileSync(ready, `${commit}\n`);
  return dir;
}
