/**
 * The app folder a `strata` command runs in: a package whose package.json exports the app (".")
 * and its route table for the browser ("./client"), with its sources in src/. Anything else is
 * refused with a sentence saying what is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** An app folder: its package name (RENDER_APP) and where it is. */
export interface AppFolder {
  readonly name: string;
  readonly directory: string;
}

/** A folder the CLI cannot work in; the message says why. */
export class AppFolderError extends Error {
  override readonly name = 'AppFolderError';
}

/** What is wrong with a manifest as an app's (empty: nothing). Pure. */
export function appManifestProblems(manifest: unknown): string[] {
  if (typeof manifest !== 'object' || manifest === null) return ['it is not a JSON object'];
  const { name, exports } = manifest as { name?: unknown; exports?: unknown };
  const problems: string[] = [];
  if (typeof name !== 'string' || name === '') problems.push('it has no "name"');
  const subpaths =
    typeof exports === 'object' && exports !== null ? Object.keys(exports as object) : [];
  for (const subpath of ['.', './client'])
    if (!subpaths.includes(subpath)) problems.push(`its "exports" has no "${subpath}"`);
  return problems;
}

/** Reads `directory`'s package.json; throws AppFolderError when it is not an app's. */
export function readAppFolder(directory: string): AppFolder {
  const file = join(directory, 'package.json');
  if (!existsSync(file))
    throw new AppFolderError(
      `${directory} is not an app folder: it has no package.json (run strata in the folder create-strata-app made).`,
    );
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AppFolderError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const problems = appManifestProblems(manifest);
  if (!existsSync(join(directory, 'src'))) problems.push('the folder has no src/');
  if (problems.length > 0)
    throw new AppFolderError(
      `${directory} is not a Strata app folder: ${problems.join('; ')} (see docs/guide.md).`,
    );
  return { name: (manifest as { name: string }).name, directory };
}
