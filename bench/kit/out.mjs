// Where raw outputs go: bench/.out/<name>/ (git-ignored). Results worth keeping are summarised by
// hand in the scenario's RESULTS.md, not committed raw.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const OUT_ROOT = join(REPO, 'bench/.out');

/** `<prefix>-<UTC minute>`, the default name of a run. */
export const runName = (prefix, now = new Date()) =>
  `${prefix}-${now.toISOString().slice(0, 16).replace(/:/g, '-')}`;

/** Writes `files` (`{ name: text }`) into bench/.out/<name>/; returns that folder. */
export function writeOutputs(name, files) {
  const dir = join(OUT_ROOT, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}
