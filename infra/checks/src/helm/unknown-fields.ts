/**
 * The unknown-field check: type-checks the rendered objects as typed object literals
 * (typed-literals.ts) with the repository's TypeScript compiler, in a scratch directory under
 * node_modules/.cache so `kubernetes-types` resolves, and reports each error against its object.
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPOSITORY_ROOT } from './chart-paths.js';
import { describeObject, type RenderedObject } from './manifests.js';
import { objectAtLine, typedLiteralSource } from './typed-literals.js';

const execFileAsync = promisify(execFile);
const TSC = join(REPOSITORY_ROOT, 'node_modules/typescript/bin/tsc');
const DIAGNOSTIC = /^objects\.ts\((\d+),\d+\): (error TS\d+: .*)$/;

const COMPILER_OPTIONS = {
  target: 'ES2023',
  module: 'NodeNext',
  moduleResolution: 'NodeNext',
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
};

/** tsc's diagnostics, one entry each: indented lines continue the one before. */
function diagnostics(output: string): string[] {
  const entries: string[] = [];
  for (const line of output.split('\n')) {
    if (line.trim() === '') continue;
    if (/^\s/.test(line) && entries.length > 0) entries[entries.length - 1] += ` ${line.trim()}`;
    else entries.push(line);
  }
  return entries;
}

/** Every type error, as `Kind/name (template): error TS…: message`; empty when all pass. */
export async function unknownFieldProblems(objects: readonly RenderedObject[]): Promise<string[]> {
  const source = typedLiteralSource(objects);
  const directory = join(
    REPOSITORY_ROOT,
    'node_modules/.cache/strata-helm/typecheck',
    `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
  );
  await mkdir(directory, { recursive: true });
  try {
    await writeFile(join(directory, 'objects.ts'), source.text);
    await writeFile(
      join(directory, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: COMPILER_OPTIONS, files: ['objects.ts'] }),
    );
    await writeFile(join(directory, 'package.json'), '{"type":"module"}');
    try {
      await execFileAsync(process.execPath, [TSC, '-p', directory, '--pretty', 'false'], {
        cwd: directory,
        maxBuffer: 64 * 1024 * 1024,
      });
      return [];
    } catch (error) {
      const output = (error as { stdout?: string }).stdout ?? String(error);
      return diagnostics(output).map((line) => {
        const match = DIAGNOSTIC.exec(line);
        const rendered = match ? objects[objectAtLine(source, Number(match[1]))] : undefined;
        if (!match || !rendered) return line;
        return `${describeObject(rendered.object)} (${rendered.source}): ${match[2]}`;
      });
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
