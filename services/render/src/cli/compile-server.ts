/**
 * The server half of `strata build`: every source file of src/ transpiled one for one into dist/
 * by esbuild (no bundling: dependencies stay imports of node_modules; type checking is the app's
 * own `tsc --noEmit`). Tests are left out.
 */
import { build } from 'esbuild';
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

/** Transpiles `<root>/src` into `<root>/dist`; throws esbuild's error (file, line, message). */
export async function compileServer(root: string): Promise<number> {
  const src = join(root, 'src');
  const files = readdirSync(src, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(src, join(entry.parentPath, entry.name)));
  const entryPoints = serverEntries(files).map((file) => join(src, file));
  await build({
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
  });
  return entryPoints.length;
}
