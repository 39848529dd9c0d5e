/**
 * The tarball check finds each way a package can be wrong, so a clean result means something.
 */
import { describe, expect, it } from 'vitest';
import {
  exportTargets,
  importedPackages,
  tarballProblems,
} from '../../src/packages/tarball-problems.js';

const manifest = {
  name: '@acme/lib',
  version: '1.0.0',
  exports: {
    '.': {
      '@strata/source': './src/index.ts',
      types: './dist/index.d.ts',
      default: './dist/index.js',
    },
    './extra': './dist/extra.js',
  },
  bin: { lib: './bin/lib.mjs' },
  dependencies: { zod: '4.0.0' },
  devDependencies: { pino: '10.0.0' },
};

describe('tarballProblems', () => {
  it('finds missing targets, untyped exports, tests, sources, no LICENSE and undeclared imports', () => {
    const files = [
      { path: 'package.json' },
      { path: 'dist/index.d.ts', text: "import type { FastifyInstance } from 'fastify';" },
      {
        path: 'dist/index.js',
        text: "import { z } from 'zod';\nimport { pino } from 'pino';\nconst x = await import('undici/fetch');\nimport 'node:fs';",
      },
      { path: 'dist/index.test.js', text: '' },
      { path: 'src/index.ts' },
    ];
    expect(tarballProblems(manifest, files)).toEqual([
      'export ./extra points at ./dist/extra.js, not in the tarball',
      'export ./extra has no types',
      'bin lib points at ./bin/lib.mjs, not in the tarball',
      'ships a test: dist/index.test.js',
      'ships a source: src/index.ts',
      'has no LICENSE',
      'imports fastify in its types without it in dependencies',
      'imports pino at run time without it in dependencies (it is a devDependency)',
      'imports undici at run time without it in dependencies',
    ]);
  });

  it('accepts a package that ships what it declares', () => {
    const files = [
      { path: 'LICENSE' },
      { path: 'dist/index.d.ts' },
      { path: 'dist/index.js', text: "export * from 'zod';\nimport { readFile } from 'fs';" },
      { path: 'dist/extra.js', text: "import '@acme/lib/extra';" },
      { path: 'dist/extra.d.ts' },
      { path: 'bin/lib.mjs', text: '' },
      // A scaffolder's template: a new app's sources and tests, importing its own dependencies.
      { path: 'template/src/page.tsx', text: "import { z } from 'zod';" },
      { path: 'template/src/page.test.ts' },
    ];
    const typed = {
      ...manifest,
      exports: {
        ...manifest.exports,
        './extra': { types: './dist/extra.d.ts', default: './dist/extra.js' },
      },
    };
    expect(tarballProblems(typed, files)).toEqual([]);
  });
});

describe('the readers', () => {
  it('reads export targets by condition, leaving out the repository-only source condition', () => {
    expect(exportTargets(manifest.exports)).toEqual([
      { condition: 'types', file: './dist/index.d.ts' },
      { condition: 'default', file: './dist/index.js' },
      { condition: '', file: './dist/extra.js' },
    ]);
  });

  it('names the package of scoped and deep imports', () => {
    expect([
      ...importedPackages("import a from '@scope/x/y';\nexport { b } from 'react-dom/server';"),
    ]).toEqual(['@scope/x', 'react-dom']);
  });
});
