// The workspace folders the root package.json lists, in its order, with the folders of a
// `dir/*` entry expanded as npm does (those holding a package.json, by name).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The workspace folders of the repository at `root`, relative to it. */
export function workspaceDirs(root) {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return workspaces.flatMap((entry) => {
    if (!entry.endsWith('/*')) return [entry];
    const parent = entry.slice(0, -2);
    return readdirSync(join(root, parent), { withFileTypes: true })
      .filter((dirent) => dirent.isDirectory())
      .map((dirent) => `${parent}/${dirent.name}`)
      .filter((dir) => existsSync(join(root, dir, 'package.json')))
      .sort();
  });
}
