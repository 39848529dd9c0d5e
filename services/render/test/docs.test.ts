import { describeConfig } from '@strata/config';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CatalogConfigSchema } from '@strata/app-catalog';
import { RenderConfigSchema } from '../src/index.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const doc = readFileSync(join(root, 'docs/render-service.md'), 'utf8');
const catalogDoc = readFileSync(join(root, 'docs/catalog-app.md'), 'utf8');
// Where the render service's and the web runtime's error codes are documented.
const errorDocs = ['render-service.md', 'catalog-app.md', 'protocol.md', 'telemetry.md']
  .map((name) => readFileSync(join(root, 'docs', name), 'utf8'))
  .join('\n');

/** Every source file (tests excluded) under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.test.ts'))
    .map((file) => readFileSync(join(root, dir, file), 'utf8'));
}

/** The `code` of every error body the sources build: `code: 'X'`, `apiError(reply, 4xx, 'X'`, `json(4xx, 'X'`. */
const errorCodes = [
  ...new Set(
    [
      ...sources('services/render/src'),
      ...sources('apps/catalog/src'),
      ...sources('packages/web/src/server'),
    ].flatMap((text) =>
      [
        ...text.matchAll(
          /(?:code:\s*(?:status === \d+ \? '([A-Z_]+)' : )?|apiError\(\s*(?:reply,\s*)?\d+,\s*|json\(\s*\d+,\s*)'([A-Z_]+)'/g,
        ),
      ].flatMap((match) => [match[1], match[2]]),
    ),
  ),
]
  // errno-style codes of Node errors (ENODATA) are not answers.
  .filter((code): code is string => code !== undefined && !/^E[A-Z]+$/.test(code))
  .sort();

describe('docs/render-service.md', () => {
  it.each(describeConfig(RenderConfigSchema).map((v) => v.name))(
    'documents the variable %s',
    (name) => {
      expect(doc).toContain(`| \`${name}\` |`);
    },
  );

  it('finds the error codes in the sources', () => {
    expect(errorCodes).toEqual(expect.arrayContaining(['ACTION_NOT_FOUND', 'INVALID_QUERY']));
  });

  it.each(errorCodes)('documents the error code %s', (code) => {
    // As `CODE` in prose and tables, or "CODE" in an example body.
    expect(errorDocs).toMatch(new RegExp(`[\`"]${code}[\`"]`));
  });
});

describe('docs/catalog-app.md', () => {
  it.each(describeConfig(CatalogConfigSchema).map((v) => v.name))(
    'documents the variable %s',
    (name) => {
      expect(catalogDoc).toContain(`| \`${name}\` |`);
    },
  );
});
