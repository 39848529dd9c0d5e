/**
 * docs/guide.md against the repository: its code samples are excerpts of the files it names, the
 * paths, packages, links, URLs, commands and variables it mentions are real, and it keeps its
 * sections. What the app does is tested by the other files here; this one only keeps the guide
 * from drifting away from the code. The guide is read by harness/guide-reading.ts, the code by
 * harness/repository-facts.ts; the checks are here.
 */
import { matchRoute } from '@strata/web';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../../services/render/src/cli/cli-args.js';
import { loadRenderConfig } from '../../../services/render/src/config.js';
import clientRoutes from '../src/client.js';
import { loadNotesConfig } from '../src/config.js';
import {
  excerptParts,
  headingAnchors,
  readGuide,
  squeeze,
  type CodeBlock,
} from './harness/guide-reading.js';
import { read, readRepositoryFacts, root } from './harness/repository-facts.js';

const guide = readGuide(read('docs/guide.md'));
const {
  workspaces,
  rootScripts,
  vitestProjects,
  notesVariables,
  renderVariables,
  notesExports,
  composeServices,
} = readRepositoryFacts();

/** The sections a newcomer goes through, in order. */
const SECTIONS = [
  'Create an app',
  'Your first page',
  'Build, start and ship it',
  'What you will build',
  'How an app fits in',
  'Start the package',
  "The app's entry point",
  'A root layout and a page',
  'A nested layout',
  'A loader that reads params',
  'A loading view and deferred data',
  'Not-found and error views',
  'An action with its schema',
  'Cache tags and invalidation',
  'Run it with npm start',
  'Run it in compose',
  'How this guide is tested',
];

/** The render service's own endpoints, which are no route of the app. */
const SERVICE_PATHS = new Set(['/readyz', '/healthz', '/metrics']);
/** The files create-strata-app writes into a new app (the guide's first sections). */
const SCAFFOLD_TEMPLATE = 'packages/create-strata-app/template';
/** npm's own commands the guide may use. */
const NPM_BUILTINS = new Set(['install', 'ci']);

/** What is wrong with an excerpt (empty: every part occurs in its file, in order). */
function excerptProblems(block: CodeBlock): string[] {
  if (!block.file) return ['no `From <file>:` line above the block names its file'];
  if (!existsSync(join(root, block.file))) return [`${block.file} does not exist`];
  const text = squeeze(read(block.file));
  let from = 0;
  for (const part of excerptParts(block.text)) {
    const at = text.indexOf(part, from);
    if (at < 0) return [`not in ${block.file} (after the previous part): ${part}`];
    from = at + part.length;
  }
  return [];
}

/** Problems of a file path or package entry point the guide names. */
/** Folders the repository's .gitignore names: generated output (`.packs/`), absent from a clone. */
const generatedFolders = new Set(
  read('.gitignore')
    .split('\n')
    .filter((line) => line.endsWith('/') && !line.startsWith('#')),
);

function pathProblems(path: string): string[] {
  if (generatedFolders.has(path)) return [];
  if (path === '.' || path.startsWith('./')) {
    const exported = Object.keys(workspaces.get('@strata/app-notes')?.exports ?? {});
    return exported.includes(path) ? [] : [`@strata/app-notes exports no ${path}`];
  }
  const exists = [root, join(root, 'apps/notes'), join(root, SCAFFOLD_TEMPLATE)].some((dir) =>
    existsSync(join(dir, path)),
  );
  return exists ? [] : [`${path} does not exist`];
}

/** Problems of a `@strata/…` name: a workspace package (or prefix of one) and its entry point. */
function packageProblems(span: string): string[] {
  if (span === '@strata/source') return []; // the export condition, not a package
  if (span.endsWith('-'))
    return [...workspaces.keys()].some((name) => name.startsWith(span))
      ? []
      : [`no package starts with ${span}`];
  const [, name = '', entry] = /^(@strata\/[\w-]+)(\/[\w-]+)?$/.exec(span) ?? [];
  const manifest = workspaces.get(name);
  if (!manifest) return [`${span} is no workspace package`];
  if (entry && !Object.keys(manifest.exports ?? {}).includes(`.${entry}`))
    return [`${name} exports no .${entry}`];
  return [];
}

/** Problems of a link: a document of docs/ and, when it names one, a heading of it. */
function linkProblems(link: string): string[] {
  if (/^[a-z]+:/.test(link)) return [`${link} is outside the repository`];
  const [target, anchor] = link.split('#');
  const path = join('docs', target || 'guide.md');
  if (!existsSync(join(root, path))) return [`${link}: no such document`];
  return !anchor || headingAnchors(read(path)).has(anchor) ? [] : [`${link}: no such heading`];
}

/** Problems of a URL path: a service endpoint, a route pattern of the app, or a URL it matches. */
function urlProblems(path: string): string[] {
  if (SERVICE_PATHS.has(path)) return [];
  const patterns = clientRoutes.routes.map((route) => route.pattern);
  const known = path.includes(':')
    ? patterns.includes(path)
    : matchRoute(clientRoutes, path) !== null;
  return known ? [] : [`${path} is no route of the notes app`];
}

/** Problems of an npm or npx command. */
function commandProblems(command: string): string[] {
  const words = command.split(/\s+/);
  if (words[0] === 'npx' && words[1] === 'strata') {
    try {
      parseCli(words.slice(2));
      return [];
    } catch (error) {
      return [`${command}: ${(error as Error).message}`];
    }
  }
  if (words[0] === 'npm' && words[1] === 'exec') return scaffolderProblems(command);
  if (words[0] === 'npx') {
    const project = words[words.indexOf('--project') + 1] ?? '';
    return [
      ...(words.slice(0, 3).join(' ') === 'npx vitest run' ? [] : [`${command}: not a Vitest run`]),
      ...(vitestProjects.has(project) ? [] : [`${command}: no Vitest project ${project}`]),
      ...words
        .slice(3)
        .filter((word) => word.includes('/'))
        .flatMap(pathProblems),
    ];
  }
  const script = words[1] === 'run' ? words[2] : words[1];
  if (words[1] !== 'run' && NPM_BUILTINS.has(script ?? '')) return [];
  return script !== undefined && script in rootScripts ? [] : [`${command}: no such script`];
}

/** Problems of the scaffolder's command: it runs create-strata-app from the tarball `npm run pack` writes. */
function scaffolderProblems(command: string): string[] {
  const tarball =
    /--package=\.\/\.packs\/(create-strata-app-[\d.]+\.tgz) -- create-strata-app \S+/.exec(
      command,
    )?.[1];
  const { version } = workspaces.get('create-strata-app') ?? {};
  return tarball === `create-strata-app-${version}.tgz`
    ? []
    : [`${command}: not create-strata-app ${version ?? '(no such workspace)'} from .packs/`];
}

/** Problems of a variable the guide sets, parsed as the notes app or the render service would. */
function assignmentProblems([name, value]: readonly [string, string]): string[] {
  if (!notesVariables.has(name) && !renderVariables.has(name))
    return [`${name} is read by neither the notes app nor the render service`];
  try {
    if (notesVariables.has(name)) loadNotesConfig({ [name]: value });
    else loadRenderConfig({ [name]: value });
  } catch (error) {
    return [`${name}=${value}: ${(error as Error).message}`];
  }
  // Render serves any app installed where it starts: here, a workspace package with a client.
  if (name === 'RENDER_APP' && !workspaces.get(value)?.exports?.['./client'])
    return [`${value} is not an app of this repository (a workspace with a ./client export)`];
  return [];
}

describe('docs/guide.md', () => {
  it('has its sections, in order', () => {
    expect(guide.sections).toEqual(SECTIONS);
  });

  it('starts from create-strata-app and shows a first page within its first 60 lines', () => {
    const opening = read('docs/guide.md').split('\n').slice(0, 60).join('\n');
    expect(opening).toContain('create-strata-app ../my-app');
    expect(opening).toMatch(
      /From `packages\/create-strata-app\/template\/src\/pages\/[\w-]+\.tsx`:/,
    );
    expect(opening).toContain("kind: 'page'");
  });

  it('has excerpts, and code blocks only in languages it knows', () => {
    expect(guide.excerpts.length).toBeGreaterThan(20);
    const known = ['ts', 'tsx', 'json', 'dockerfile', 'nginx', 'sh', 'yaml'];
    expect(guide.blocks.filter((block) => !known.includes(block.language))).toEqual([]);
  });

  it.each(guide.excerpts.map((block) => [block.line, block.file ?? '(no file)', block] as const))(
    'the block at line %i occurs in %s',
    (_line, _file, block) => {
      expect(excerptProblems(block)).toEqual([]);
    },
  );

  it('names files that exist, and entry points the notes package exports', () => {
    expect(guide.paths).toContain('apps/notes/src/routes.ts');
    expect(guide.paths.flatMap(pathProblems)).toEqual([]);
  });

  it('names packages of this repository, and entry points they export', () => {
    expect(guide.packages).toContain('@strata/app-notes');
    expect(guide.packages.flatMap(packageProblems)).toEqual([]);
  });

  it('links to documents and headings that exist', () => {
    expect(guide.links.length).toBeGreaterThan(10);
    expect(guide.links.flatMap(linkProblems)).toEqual([]);
  });

  it('is linked to by the other docs at headings it has', () => {
    const anchors = headingAnchors(read('docs/guide.md'));
    const broken = readdirSync(join(root, 'docs'))
      .filter((file) => file.endsWith('.md'))
      .flatMap((file) =>
        [...read(`docs/${file}`).matchAll(/\(guide\.md#([\w-]+)\)/g)]
          .filter((match) => !anchors.has(match[1]!))
          .map((match) => `docs/${file}: guide.md#${match[1]}`),
      );
    expect(broken).toEqual([]);
  });

  it('gives URL paths the notes app has a route for', () => {
    expect(guide.urlPaths).toContain('/notes/stats');
    expect(guide.urlPaths.flatMap(urlProblems)).toEqual([]);
  });

  it('runs npm and npx commands that exist', () => {
    expect(guide.npmCommands).toEqual(
      expect.arrayContaining(['npm start', 'npm install', 'npx vitest run --project app-notes']),
    );
    expect(guide.npmCommands.flatMap(commandProblems)).toEqual([]);
  });

  it('stops only compose services that exist', () => {
    expect([...composeServices]).toEqual(expect.arrayContaining(['gateway', 'render']));
    expect(guide.composeServicesNamed.filter((service) => !composeServices.has(service))).toEqual(
      [],
    );
  });

  it('sets only variables the notes app or the render service reads, to values they accept', () => {
    expect(guide.assignments.map(([name]) => name)).toEqual(
      expect.arrayContaining(['RENDER_APP', 'NOTES_FILE']),
    );
    expect(guide.assignments.flatMap(assignmentProblems)).toEqual([]);
  });

  it('names variables that exist, and constants the app exports', () => {
    expect(guide.constants).toContain('NOTES_STATS_DELAY');
    const unknown = guide.constants.filter(
      (name) => !notesVariables.has(name) && !renderVariables.has(name) && !notesExports.has(name),
    );
    expect(unknown).toEqual([]);
  });
});
