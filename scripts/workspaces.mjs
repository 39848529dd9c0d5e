// The workspace folders the root package.json lists, in its order, with the folders of a
// `dir/*` entry expanded as npm does (those holding a package.json, by name); a folder an earlier
// entry named already keeps that place, as in npm's order (apps/catalog before the other apps).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The workspace folders of the repository at `root`, relative to it. */
export function workspaceDirs(root) {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dirs = workspaces.flatMap((entry) => {
    if (!entry.endsWith('/*')) return [entry];
    const parent = entry.slice(0, -2);
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((dirent) => dirent.isDirectory())
      .map((dirent) => `${parent}/${dirent.name}`)
      .filter((dir) => existsSync(join(root, dir, 'package.json')))
      .sort();
  });
  return [...new Set(dirs)];
}
