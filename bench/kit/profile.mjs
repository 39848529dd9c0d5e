// CPU profiles of a service: the node flags that make it write one on exit, and reading the
// newest one back. Summarising is profile-summary.mjs's job.
import { mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Node flags for a V8 CPU profile written into `dir` when the process exits. */
export function cpuProfileFlags(dir, { intervalUs } = {}) {
  mkdirSync(dir, { recursive: true });
  return [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
    ...(intervalUs ? [`--cpu-prof-interval=${intervalUs}`] : []),
  ];
}

/** The path of the newest .cpuprofile in `dir`. */
export function newestProfileFile(dir) {
  const newest = readdirSync(dir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => ({ file, mtime: statSync(join(dir, file)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime)[0];
  if (!newest) throw new Error(`no .cpuprofile in ${dir}`);
  return join(dir, newest.file);
}

/** The newest .cpuprofile in `dir`, parsed. */
export const readNewestProfile = (dir) => JSON.parse(readFileSync(newestProfileFile(dir), 'utf8'));
