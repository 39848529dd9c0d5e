/**
 * `@strata/app-notes/client` is what the browser bundle imports: the whole route table, and
 * nothing that only runs on a server.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import clientRoutes from './client.js';

describe('the client module', () => {
  it('exports every route of the app, the error drill included', () => {
    expect(clientRoutes.routes.map((route) => route.pattern).sort()).toEqual([
      '/',
      '/notes',
      '/notes/:id',
      '/notes/broken',
      '/notes/stats',
    ]);
  });

  it('bundles for the browser without the store, the actions, the config or Node built-ins', async () => {
    const result = await build({
      // Input paths in the metafile are relative to the package: src/…, ../../packages/…
      absWorkingDir: fileURLToPath(new URL('..', import.meta.url)),
      entryPoints: ['src/client.ts'],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      jsx: 'automatic',
      conditions: ['@strata/source'],
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    const own = inputs.filter((path) => path.startsWith('src/'));
    expect(own).toContain('src/routes.ts');
    expect(
      own.filter((path) => /^src\/(store|actions)\/|^src\/(config|index)\.ts$/.test(path)),
    ).toEqual([]);
    // The file schema (zod) stays on the server: the form's limits come from note-limits.ts.
    expect(own.filter((path) => path.endsWith('domain/note.ts'))).toEqual([]);
    expect(inputs.filter((path) => path.startsWith('node:') || path.includes('/zod/'))).toEqual([]);
  });
});
