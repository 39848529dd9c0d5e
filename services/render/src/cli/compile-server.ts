/**
 * The server half of `strata build`: every source file of src/ transpiled one for one into dist/
 * by esbuild (no bundling: dependencies stay imports of node_modules; type checking is the app's
 * own `tsc --noEmit`). Tests are left out. The compiler is kept between builds for `strata dev`;
 * a file added or removed starts a new one.
 */
import { context, type BuildContext } from 'esbuild';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const SOURCE = /\.(ts|tsx|mts|js|jsx|mjs)$/;
const TEST = /\.test\.[cm]?[jt]sx?$|(^|\/)__tests__\//;

/** Which files of src/ (paths relative to it) are compiled: code, not tests or declarations. */
export function serverEntries(files: readonly string[]): string[] {
  return files
    .filter((file) => SOURCE.test(file) && !file.endsWith('.d.ts') && !TEST.test(file))
    .sort();
}

export interface ServerCompiler {
  /** Compiles; returns how many files; throws esbuild's error (file, line, message). */
  rebuild(): Promise<number>;
  dispose(): Promise<void>;
}

/** A compiler of `<root>/src` into `<root>/dist`. */
export function createServerCompiler(root: string): ServerCompiler {
  const src = join(root, 'src');
  let compiling: { entries: string; context: BuildContext } | undefined;
  return {
    async rebuild() {
      const files = readdirSync(src, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => relative(src, join(entry.parentPath, entry.name)));
      const entryPoints = serverEntries(files).map((file) => join(src, file));
      const entries = entryPoints.join('\n');
      if (compiling?.entries !== entries) {
        await compiling?.context.dispose();
        compiling = {
          entries,
          context: await context({
            entryPoints,
            outdir: join(root, 'dist'),
            outbase: src,
            bundle: false,
            format: 'esm',
            platform: 'node',
            target: 'node24',
            jsx: 'automatic',
            sourcemap: 'linked',
            logLevel: 'silent',
          }),
        };
      }
      await compiling.context.rebuild();
      return entryPoints.length;
    },
    async dispose() {
      await compiling?.context.dispose();
    },
  };
}
