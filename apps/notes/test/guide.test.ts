/**
 * docs/guide.md against the repository: its code samples are excerpts of the files it names, the
 * paths, packages, links, URLs, commands and variables it mentions are real, and it keeps its
 * sections. What the app does is tested by the other files here; this one only keeps the guide
 * from drifting away from the code.
 */
import { describeConfig } from '@strata/config';
import { matchRoute } from '@strata/web';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadRenderConfig, RenderConfigSchema } from '../../../services/render/src/config.js';
import clientRoutes from '../src/client.js';
import { loadNotesConfig, NotesConfigSchema } from '../src/config.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const guide = read('docs/guide.md');

/** The sections a newcomer goes through, in order. */
const SECTIONS = [
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

/** Code blocks that are commands or text to add, not excerpts: they need no `From` line. */
const UNMARKED_LANGUAGES = new Set(['sh', 'yaml']);
/** The render service's own endpoints, which are no route of the app. */
const SERVICE_PATHS = new Set(['/readyz', '/healthz', '/metrics']);
/** npm's own commands the guide may use. */
const NPM_BUILTINS = new Set(['install', 'ci']);

interface CodeBlock {
  readonly language: string;
  readonly text: string;
  /** The file named by the `From <file>:` line above the block. */
  readonly file: string | undefined;
  readonly line: number;
}

/** The guide's fenced blocks (indented ones in lists too) and the prose around them. */
function parseGuide(markdown: string): { blocks: CodeBlock[]; prose: string } {
  const blocks: CodeBlock[] = [];
  const prose: string[] = [];
  const lines = markdown.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const opening = /^(\s*)```(\S*)\s*$/.exec(lines[index]!);
    if (!opening) {
      prose.push(lines[index]!);
      continue;
    }
    const indent = opening[1]!.length;
    const body: string[] = [];
    const start = index;
    while (++index < lines.length && !/^\s*```\s*$/.test(lines[index]!))
      body.push(lines[index]!.slice(Math.min(indent, /^\s*/.exec(lines[index]!)![0].length)));
    const above = lines
      .slice(0, start)
      .reverse()
      .find((line) => line.trim() !== '');
    const marker = above && /^\s*From `([^`]+)`:\s*$/.exec(above);
    blocks.push({
      language: opening[2]!,
      text: body.join('\n'),
      file: marker ? marker[1] : undefined,
      line: start + 1,
    });
  }
  return { blocks, prose: prose.join('\n') };
}

const { blocks, prose } = parseGuide(guide);
const excerpts = blocks.filter((block) => !UNMARKED_LANGUAGES.has(block.language));
const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
/** Lines of the shell blocks, and inline code that is a command. */
const commandLines = [
  ...blocks
    .filter((block) => block.language === 'sh')
    .flatMap((block) => block.text.split('\n'))
    .flatMap((line) => line.split('&&')),
  ...spans.filter((span) => /^([A-Z_]+=\S+ )*(npm|npx) /.test(span)),
]
  .map((line) => line.trim())
  .filter((line) => line !== '');

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The parts of an excerpt (split at `// …` and `# …` lines), each as it must appear. */
function partsOf(text: string): string[] {
  const parts: string[][] = [[]];
  for (const line of text.split('\n')) {
    if (/^\s*(\/\/|#) …\s*$/.test(line)) parts.push([]);
    else parts.at(-1)!.push(line);
  }
  return parts.map((part) => squeeze(part.join('\n'))).filter((part) => part !== '');
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as dashes. */
function slugOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

function anchorsOf(path: string): Set<string> {
  return new Set(
    [...read(path).matchAll(/^#{1,6} (.+)$/gm)].map((match) => slugOf(match[1]!.trim())),
  );
}

/** Every workspace's manifest, by package name. */
const workspaces = new Map(
  (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces.map((dir) => {
    const manifest = JSON.parse(read(`${dir}/package.json`)) as {
      name: string;
      scripts?: Record<string, string>;
      exports?: Record<string, unknown>;
    };
    return [manifest.name, { dir, ...manifest }] as const;
  }),
);
const rootScripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> })
  .scripts;

/** Names of the Vitest projects (`--project`), from each workspace's config. */
const vitestProjects = new Set(
  [...workspaces.values()]
    .map(({ dir }) => join(dir, 'vitest.config.ts'))
    .filter((path) => existsSync(join(root, path)))
    .flatMap((path) => [...read(path).matchAll(/name: '([^']+)'/g)].map((match) => match[1]!)),
);

const notesVariables = new Set(describeConfig(NotesConfigSchema).map((v) => v.name));
const renderVariables = new Set(describeConfig(RenderConfigSchema).map((v) => v.name));

/** Names the notes app's sources export (constants such as NOTES_ROOT). */
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
const notesExports = exportedNames('apps/notes/src');

/** Checks `value` the way the notes app or the render service would parse it. */
function parseVariable(name: string, value: string): void {
  if (notesVariables.has(name)) loadNotesConfig({ [name]: value });
  else loadRenderConfig({ [name]: value });
}

/** Every `NAME=value` the guide sets: before a command, in inline code, in the YAML to add. */
const assignments = [
  ...commandLines.flatMap((line) =>
    [...line.matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*)=(\S+)/g)].map((match) => [match[1]!, match[2]!]),
  ),
  ...spans.flatMap((span) => {
    const match = /^([A-Z][A-Z0-9_]*)=(\S+)$/.exec(span);
    return match ? [[match[1]!, match[2]!]] : [];
  }),
  ...blocks
    .filter((block) => block.language === 'yaml')
    .flatMap((block) =>
      [...block.text.matchAll(/^\s*([A-Z][A-Z0-9_]*): '?([^'\n]+)'?$/gm)].map((match) => [
        match[1]!,
        match[2]!,
      ]),
    ),
] as [string, string][];

/** What is wrong with an excerpt (empty: every part occurs in its file, in order). */
function excerptProblems(block: CodeBlock): string[] {
  if (!block.file) return ['no `From <file>:` line above the block names its file'];
  if (!existsSync(join(root, block.file))) return [`${block.file} does not exist`];
  const text = squeeze(read(block.file));
  let from = 0;
  for (const part of partsOf(block.text)) {
    const at = text.indexOf(part, from);
    if (at < 0) return [`not in ${block.file} (after the previous part): ${part}`];
    from = at + part.length;
  }
  return [];
}

/** Problems of a file path or package entry point the guide names. */
function pathProblems(path: string): string[] {
  if (path === '.' || path.startsWith('./')) {
    const exported = Object.keys(workspaces.get('@strata/app-notes')?.exports ?? {});
    return exported.includes(path) ? [] : [`@strata/app-notes exports no ${path}`];
  }
  const exists = existsSync(join(root, path)) || existsSync(join(root, 'apps/notes', path));
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
  return !anchor || anchorsOf(path).has(anchor) ? [] : [`${link}: no such heading`];
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

/** The render service's dependencies: the apps it can serve among them. */
const renderDependencies = Object.keys(
  (JSON.parse(read('services/render/package.json')) as { dependencies: object }).dependencies,
);

/** Problems of a variable the guide sets. */
function assignmentProblems([name, value]: readonly [string, string]): string[] {
  if (!notesVariables.has(name) && !renderVariables.has(name))
    return [`${name} is read by neither the notes app nor the render service`];
  try {
    parseVariable(name, value);
  } catch (error) {
    return [`${name}=${value}: ${(error as Error).message}`];
  }
  if (name === 'RENDER_APP' && !renderDependencies.includes(value))
    return [`${value} is not a dependency of the render service`];
  return [];
}

/** The keys of docker-compose.yml's top-level `services:` map. */
const composeServices = new Set(
  [
    ...(
      /^services:\n([\s\S]*?)(?=^\S|(?![\s\S]))/m.exec(read('docker-compose.yml'))?.[1] ?? ''
    ).matchAll(/^ {2}([\w-]+):/gm),
  ].map((match) => match[1]!),
);

/** A path-like inline code span: a relative path, or a file name with an extension. */
const isPath = (span: string) =>
  span === '.' ||
  (/^[\w.-]+(\/[\w.-]+)*\/?$/.test(span) &&
    (span.includes('/') || /\.(tsx?|json|mjs|md|ya?ml|conf)$/.test(span)));

describe('docs/guide.md', () => {
  it('has its sections, in order', () => {
    const headings = [...guide.matchAll(/^## (.+)$/gm)].map((match) => match[1]!.trim());
    expect(headings).toEqual(SECTIONS);
  });

  it('has excerpts, and code blocks only in languages it knows', () => {
    expect(excerpts.length).toBeGreaterThan(20);
    const known = ['ts', 'tsx', 'json', 'dockerfile', 'nginx', 'sh', 'yaml'];
    expect(blocks.filter((block) => !known.includes(block.language))).toEqual([]);
  });

  it.each(excerpts.map((block) => [block.line, block.file ?? '(no file)', block] as const))(
    'the block at line %i occurs in %s',
    (_line, _file, block) => {
      expect(excerptProblems(block)).toEqual([]);
    },
  );

  it('names files that exist, and entry points the notes package exports', () => {
    const paths = spans.filter(isPath);
    expect(paths).toContain('apps/notes/src/routes.ts');
    expect(paths.flatMap(pathProblems)).toEqual([]);
  });

  it('names packages of this repository, and entry points they export', () => {
    const names = spans.filter((span) => span.startsWith('@strata/'));
    expect(names).toContain('@strata/app-notes');
    expect(names.flatMap(packageProblems)).toEqual([]);
  });

  it('links to documents and headings that exist', () => {
    const links = [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(10);
    expect(links.flatMap(linkProblems)).toEqual([]);
  });

  it('is linked to by the other docs at headings it has', () => {
    const anchors = anchorsOf('docs/guide.md');
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
    const paths = spans.filter((span) => /^\/[\w:/.-]*$/.test(span));
    expect(paths).toContain('/notes/stats');
    expect(paths.flatMap(urlProblems)).toEqual([]);
  });

  it('runs npm and npx commands that exist', () => {
    const commands = commandLines
      .map((line) => line.replace(/^([A-Z][A-Z0-9_]*=\S+\s+)+/, ''))
      .filter((line) => /^(npm|npx) /.test(line));
    expect(commands).toEqual(
      expect.arrayContaining(['npm start', 'npm install', 'npx vitest run --project app-notes']),
    );
    expect(commands.flatMap(commandProblems)).toEqual([]);
  });

  it('stops only compose services that exist', () => {
    expect([...composeServices]).toEqual(expect.arrayContaining(['gateway', 'render-2']));
    const named = commandLines
      .filter((line) => /^docker-compose (stop|start) /.test(line))
      .flatMap((line) => line.split(/\s+/).slice(2));
    expect(named.filter((service) => !composeServices.has(service))).toEqual([]);
  });

  it('sets only variables the notes app or the render service reads, to values they accept', () => {
    expect(assignments.map(([name]) => name)).toEqual(
      expect.arrayContaining(['RENDER_APP', 'NOTES_FILE']),
    );
    expect(assignments.flatMap(assignmentProblems)).toEqual([]);
  });

  it('names variables that exist, and constants the app exports', () => {
    const names = spans.filter((span) => /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(span));
    expect(names).toContain('NOTES_STATS_DELAY');
    const unknown = names.filter(
      (name) => !notesVariables.has(name) && !renderVariables.has(name) && !notesExports.has(name),
    );
    expect(unknown).toEqual([]);
  });
});
