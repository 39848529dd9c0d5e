/**
 * What is wrong with a package tarball, from its manifest and the files in it: exports or bin
 * targets it lacks, subpaths without types, tests or TypeScript sources shipped, no LICENSE, and
 * packages its code or its types import without declaring them. Pure: the test reads the tarball.
 */
import { builtinModules } from 'node:module';
import type { PackageManifest } from '../../../../scripts/pack/publishable.mjs';

/** A file of the tarball: its path inside the package and, for code, its text. */
export interface PackedFile {
  readonly path: string;
  readonly text?: string;
}

// Only this repository's tools (type checking, tests, bundling) set it; it names sources the
// tarball does not ship, which no other resolver asks for.
const SOURCE_CONDITION = '@strata/source';
// Where create-strata-app keeps the files it copies into a new app.
const TEMPLATE = 'template/';
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"./][^'"]*)['"]/g;

/** The files an `exports` map points at, by subpath: `{ '.': { types, default } }`. */
export function exportTargets(
  exports: unknown,
  condition = '',
): { condition: string; file: string }[] {
  if (typeof exports === 'string') return [{ condition, file: exports }];
  if (typeof exports !== 'object' || exports === null) return [];
  return Object.entries(exports).flatMap(([key, value]) =>
    key === SOURCE_CONDITION ? [] : exportTargets(value, key.startsWith('.') ? condition : key),
  );
}

/** The package a bare import specifier names: `@scope/name/sub` → `@scope/name`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Bare specifiers the code imports at run time (statically or dynamically). */
export function importedPackages(code: string): Set<string> {
  const names = new Set<string>();
  for (const match of code.matchAll(IMPORT)) {
    const specifier = match[1]!;
    if (specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
    names.add(packageOf(specifier));
  }
  return names;
}

/** Every problem of the tarball, as sentences; empty when it is fine. */
export function tarballProblems(manifest: PackageManifest, files: readonly PackedFile[]): string[] {
  const paths = new Set(files.map((file) => file.path));
  const problems: string[] = [];
  const has = (target: string) => paths.has(target.replace(/^\.\//, ''));
  for (const [subpath, entry] of Object.entries(manifest.exports ?? {})) {
    const targets = exportTargets(entry);
    for (const { file } of targets)
      if (!has(file)) problems.push(`export ${subpath} points at ${file}, not in the tarball`);
    if (!targets.some(({ condition }) => condition === 'types'))
      problems.push(`export ${subpath} has no types`);
  }
  for (const [name, file] of Object.entries(manifest.bin ?? {}))
    if (!has(file)) problems.push(`bin ${name} points at ${file}, not in the tarball`);
  for (const path of paths) {
    // A scaffolder's template is the new app's source, tests included: shipped as written.
    if (path.startsWith(TEMPLATE)) continue;
    if (/(^|\/)(test|tests|__tests__)\/|\.test\.[cm]?[jt]sx?$/.test(path))
      problems.push(`ships a test: ${path}`);
    if (/\.tsx?$/.test(path) && !path.endsWith('.d.ts')) problems.push(`ships a source: ${path}`);
  }
  if (!paths.has('LICENSE')) problems.push('has no LICENSE');
  // Code needs its imports installed; declarations need them for the installer's type checks.
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  const undeclared = new Map<string, string>();
  for (const file of files) {
    const kind = file.path.endsWith('.d.ts')
      ? 'in its types'
      : /\.m?js$/.test(file.path)
        ? 'at run time'
        : undefined;
    if (file.text === undefined || kind === undefined || file.path.startsWith(TEMPLATE)) continue;
    for (const name of importedPackages(file.text))
      if (!declared.has(name) && !undeclared.has(name)) undeclared.set(name, kind);
  }
  for (const [name, kind] of [...undeclared].sort(([a], [b]) => a.localeCompare(b)))
    problems.push(
      `imports ${name} ${kind} without it in dependencies${manifest.devDependencies?.[name] ? ' (it is a devDependency)' : ''}`,
    );
  return problems;
}
