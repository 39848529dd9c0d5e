// Bundles the browser entry with esbuild into dist/public/assets/client-<hash>.js (minified,
// production React) and writes manifest.json with the script URL and the content hash.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist/public/assets');
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

const result = await build({
  entryPoints: [join(root, 'src/client/entry.tsx')],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: 'linked',
  jsx: 'automatic',
  conditions: ['@strata/source'],
  define: { 'process.env.NODE_ENV': '"production"' },
  entryNames: 'client-[hash]',
  outdir,
  metafile: true,
  logLevel: 'warning',
});
const script = Object.keys(result.metafile.outputs).find((file) => file.endsWith('.js'));
if (!script) throw new Error('esbuild produced no script');
const name = basename(script);
const hash = name.replace(/^client-|\.js$/g, '');
writeFileSync(
  join(outdir, 'manifest.json'),
  JSON.stringify({ client: `/assets/${name}`, hash }, null, 2),
);
console.log(`client bundle: /assets/${name}`);
