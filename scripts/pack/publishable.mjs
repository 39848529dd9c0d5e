// The workspaces this repository publishes: every one whose package.json says
// `"private": false` (the platform an app of its own installs), in the root's workspace order.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspaceDirs } from '../workspaces.mjs';

/** `{ dir, manifest }` of every publishable workspace. */
export function publishableWorkspaces(root) {
  return workspaceDirs(root)
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')),
    }))
    .filter(({ manifest }) => manifest.private === false);
}
