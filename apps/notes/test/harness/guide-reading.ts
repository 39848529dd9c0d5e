/**
 * Reading docs/guide.md (or any Markdown) into what guide.test.ts checks against the code: its
 * sections, code blocks with the file each excerpt names, and the inline code, links, commands
 * and variable settings of its text. Pure functions of the text: nothing here reads a file.
 */

/** Code blocks that are commands or text to add, not excerpts: they need no `From` line. */
const UNMARKED_LANGUAGES = new Set(['sh', 'yaml']);

/** A fenced block of the guide. */
export interface CodeBlock {
  readonly language: string;
  readonly text: string;
  /** The file named by the `From <file>:` line above the block. */
  readonly file: string | undefined;
  readonly line: number;
}

/** What the guide says, sorted into what the checks take. */
export interface GuideReading {
  /** The `## ` headings, in order. */
  readonly sections: string[];
  readonly blocks: CodeBlock[];
  /** The blocks that must be excerpts of a file (all but commands and text to add). */
  readonly excerpts: CodeBlock[];
  /** The targets of the Markdown links outside code blocks. */
  readonly links: string[];
  /** Inline code outside code blocks. */
  readonly spans: string[];
  /** Inline code that names a file or folder. */
  readonly paths: string[];
  /** Inline code that names a `@strata/…` package (or prefix, or entry point). */
  readonly packages: string[];
  /** Inline code that is a URL path. */
  readonly urlPaths: string[];
  /** Inline code in CONSTANT_CASE (variables, exported constants). */
  readonly constants: string[];
  /** Lines of the shell blocks (split at `&&`), and inline code that is a command. */
  readonly commandLines: string[];
  /** The npm and npx commands among them, without the variables set before them. */
  readonly npmCommands: string[];
  /** The services named by `docker-compose stop` and `docker-compose start` lines. */
  readonly composeServicesNamed: string[];
  /** Every `NAME=value` the guide sets: before a command, in inline code, in the YAML to add. */
  readonly assignments: [string, string][];
}

/** Reads the guide's Markdown. */
export function readGuide(markdown: string): GuideReading {
  const { blocks, prose } = parseBlocks(markdown);
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  const commandLines = [
    ...blocks
      .filter((block) => block.language === 'sh')
      .flatMap((block) => block.text.split('\n'))
      .flatMap((line) => line.split('&&')),
    ...spans.filter((span) => /^([A-Z_]+=\S+ )*(npm|npx) /.test(span)),
  ]
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return {
    sections: [...markdown.matchAll(/^## (.+)$/gm)].map((match) => match[1]!.trim()),
    blocks,
    excerpts: blocks.filter((block) => !UNMARKED_LANGUAGES.has(block.language)),
    links: [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!),
    spans,
    paths: spans.filter(isPath),
    packages: spans.filter((span) => span.startsWith('@strata/')),
    urlPaths: spans.filter((span) => /^\/[\w:/.-]*$/.test(span)),
    constants: spans.filter((span) => /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/.test(span)),
    commandLines,
    npmCommands: commandLines
      .map((line) => line.replace(/^([A-Z][A-Z0-9_]*=\S+\s+)+/, ''))
      .filter((line) => /^(npm|npx) /.test(line)),
    composeServicesNamed: commandLines
      .filter((line) => /^docker-compose (stop|start) /.test(line))
      .flatMap((line) => line.split(/\s+/).slice(2)),
    assignments: assignmentsOf(commandLines, spans, blocks),
  };
}

/** The fenced blocks (indented ones in lists too) and the prose around them. */
function parseBlocks(markdown: string): { blocks: CodeBlock[]; prose: string } {
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

function assignmentsOf(
  commandLines: string[],
  spans: string[],
  blocks: CodeBlock[],
): [string, string][] {
  return [
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
}

/** A path-like inline code span: a relative path, or a file name with an extension. */
function isPath(span: string): boolean {
  return (
    span === '.' ||
    (/^[\w.-]+(\/[\w.-]+)*\/?$/.test(span) &&
      (span.includes('/') || /\.(tsx?|json|mjs|md|ya?ml|conf)$/.test(span)))
  );
}

/** Text with every run of white space as one space, for comparing code across line breaks. */
export const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The parts of an excerpt (split at `// …` and `# …` lines), each as it must appear. */
export function excerptParts(text: string): string[] {
  const parts: string[][] = [[]];
  for (const line of text.split('\n')) {
    if (/^\s*(\/\/|#) …\s*$/.test(line)) parts.push([]);
    else parts.at(-1)!.push(line);
  }
  return parts.map((part) => squeeze(part.join('\n'))).filter((part) => part !== '');
}

/** The anchors of a Markdown document's headings, as GitHub makes them. */
export function headingAnchors(markdown: string): Set<string> {
  return new Set(
    [...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slugOf(match[1]!.trim())),
  );
}

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as dashes. */
function slugOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

/** The keys of a compose file's top-level `services:` map. */
export function composeServiceNames(yaml: string): Set<string> {
  return new Set(
    [
      ...(/^services:\n([\s\S]*?)(?=^\S|(?![\s\S]))/m.exec(yaml)?.[1] ?? '').matchAll(
        /^ {2}([\w-]+):/gm,
      ),
    ].map((match) => match[1]!),
  );
}
