#!/usr/bin/env node
// Bundles the browser side of the Strata app in the current directory (an app's build runs it
// after compiling): dist/public/assets/client-<hash>.js (minified, production React) hydrating the
// route table of the app's `./client` export, the chunks it imports lazily (chunk-<hash>.js: the
// telemetry SDK), and manifest.json with the entry's URL and content hash, which the render
// service reads from the installed app package.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const root = process.cwd();
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const clientExport = manifest.exports?.['./client'];
const clientFile =
  typeof clientExport === 'string' ? clientExport : (clientExport?.import ?? clientExport?.default);
if (typeof clientFile !== 'string') {
  console.error(`${manifest.name}: package.json has no "./client" export to bundle`);
  process.exit(1);
}
// The same directory the render service looks in (CLIENT_BUNDLE_DIRECTORY).
const outdir = join(root, 'dist/public/assets');
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });
const result = await build({
  stdin: {
    contents: `import { hydrateApp } from '@strata/web/client';\nimport routes from ${JSON.stringify(clientFile)};\nhydrateApp(routes);\n`,
    resolveDir: root,
    sourcefile: `${manifest.name}/entry.js`,
    loader: 'js',
  },
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: 'linked',
  jsx: 'automatic',
  entryNames: 'client-[hash]',
  chunkNames: 'chunk-[hash]',
  splitting: true,
  // V8's explicit compile hint (Chromium 136+): compile every function while the script streams
  // in, off the main thread, instead of on its first call. Without it the first client
  // navigation compiles React's commit paths lazily, in the click's task.
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
if (!script || !entry) throw new Error(`esbuild produced no script for ${manifest.name}`);
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
console.log(`client bundle of ${manifest.name}: /assets/${name}`);
