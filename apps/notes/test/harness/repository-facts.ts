/**
 * What the repository offers for docs/guide.md to name, read from the files themselves: its
 * workspace packages, root scripts and Vitest projects, the variables the notes app and the
 * render service read, the names the notes app exports and the compose
 * services. guide.test.ts checks the guide against these.
 */
import { describeConfig } from '@strata/config';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workspaceDirs } from '../../../../scripts/workspaces.mjs';
import { RenderConfigSchema } from '../../../../services/render/src/config.js';
import { NotesConfigSchema } from '../../src/config.js';
import { composeServiceNames } from './guide-reading.js';

/** The repository root. */
export const root = fileURLToPath(new URL('../../../../', import.meta.url));
/** A file of the repository, by its path from the root. */
export const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** A workspace's manifest, with the folder it is in. */
export interface Workspace {
  readonly dir: string;
  readonly name: string;
  readonly version?: string;
  readonly scripts?: Record<string, string>;
  readonly exports?: Record<string, unknown>;
}

export interface RepositoryFacts {
  /** Every workspace's manifest, by package name. */
  readonly workspaces: Map<string, Workspace>;
  readonly rootScripts: Record<string, string>;
  /** Names of the Vitest projects (`--project`), from each workspace's config. */
  readonly vitestProjects: Set<string>;
  readonly notesVariables: Set<string>;
  readonly renderVariables: Set<string>;
  /** Names the notes app's sources export (constants such as NOTES_ROOT). */
  readonly notesExports: Set<string>;
  /** The keys of docker-compose.yml's top-level `services:` map. */
  readonly composeServices: Set<string>;
}

/** Reads the facts from the files as they are now. */
export function readRepositoryFacts(): RepositoryFacts {
  const manifest = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
  const workspaces = new Map(
    workspaceDirs(root).map((dir) => {
      const own = JSON.parse(read(`${dir}/package.json`)) as Omit<Workspace, 'dir'>;
      return [own.name, { dir, ...own }] as const;
    }),
  );
  return {
    workspaces,
    rootScripts: manifest.scripts,
    vitestProjects: new Set(
      [...workspaces.values()]
        .map(({ dir }) => join(dir, 'vitest.config.ts'))
        .filter((path) => existsSync(join(root, path)))
        .flatMap((path) => [...read(path).matchAll(/name: '([^']+)'/g)].map((match) => match[1]!)),
    ),
    notesVariables: new Set(describeConfig(NotesConfigSchema).map((v) => v.name)),
    renderVariables: new Set(describeConfig(RenderConfigSchema).map((v) => v.name)),
    notesExports: exportedNames('apps/notes/src'),
    composeServices: composeServiceNames(read('docker-compose.yml')),
  };
}

/** The names the TypeScript files under `dir` export. */
function exportedNames(dir: string): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })) {
    if (!/\.tsx?$/.test(file)) continue;
    for (const match of read(join(dir, file)).matchAll(
      /export (?:const|function|class|interface|type) (\w+)/g,
    ))
      names.add(match[1]!);
  }
  return names;
}
