// Bundles each app's browser entry with esbuild: for every Strata app the render service depends
// on (@strata/app-*), dist/public/<app>/assets/client-<hash>.js (minified, production React) plus
// the chunks it imports lazily (chunk-<hash>.js: the telemetry SDK), and manifest.json with the
// entry's URL and the content hash. The entry hydrates the app's route table (`<app>/client`).
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const apps = Object.keys(manifest.dependencies ?? {}).filter((name) =>
  name.startsWith('@strata/app-'),
);
rmSync(join(root, 'dist/public'), { recursive: true, force: true });

for (const app of apps) {
  // The same directory name client-assets.ts looks in.
  const outdir = join(root, 'dist/public', app.replace(/^@/, '').replace(/\//g, '-'), 'assets');
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    stdin: {
      contents: `import { hydrateApp } from '@strata/web/client';\nimport routes from '${app}/client';\nhydrateApp(routes);\n`,
      resolveDir: root,
      sourcefile: `${app}/entry.js`,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    sourcemap: 'linked',
    jsx: 'automatic',
    conditions: ['@strata/source'],
    entryNames: 'client-[hash]',
    chunkNames: 'chunk-[hash]',
    splitting: true,
    // V8's explicit compile hint (Chromium 136+, a comment elsewhere): compile every function
    // while the script streams in, off the main thread, instead of on its first call. Without it
    // the first client navigation compiles React's commit paths lazily, in the click's task
    // (bench/router/RESULTS.md).
    banner: { js: '//# allFunctionsCalledOnLoad' },
    // Sentry's debug logging is dead weight in production.
    define: { 'process.env.NODE_ENV': '"production"', __SENTRY_DEBUG__: 'false' },
    outdir,
    metafile: true,
    logLevel: 'warning',
  });
  const [script, entry] =
    Object.entries(result.metafile.outputs).find(
      ([file, output]) => file.endsWith('.js') && output.entryPoint,
    ) ?? [];
  if (!script || !entry) throw new Error(`esbuild produced no script for ${app}`);
  const name = basename(script);
  const hash = name.replace(/^client-|\.js$/g, '');
  // Chunks the entry imports statically (code it shares with the lazy chunks): listed so the
  // document asks for them at once instead of after the entry has been fetched and parsed.
  const shared = entry.imports
    .filter((imported) => imported.kind === 'import-statement')
    .map((imported) => `/assets/${basename(imported.path)}`);
  writeFileSync(
    join(outdir, 'manifest.json'),
    JSON.stringify({ client: `/assets/${name}`, shared, hash }, null, 2),
  );
  console.log(`client bundle of ${app}: /assets/${name}`);
}
