/**
 * Bundles the browser side of a Strata app: dist/public/assets/client-<hash>.js hydrating the
 * route table of the app's `./client` export, the chunks it imports lazily (chunk-<hash>.js: the
 * telemetry SDK), and manifest.json with the entry's URL and content hash, which the render
 * service reads from the installed app package. Used by `strata-bundle-client` (an app's build)
 * and by @strata/render's `strata build` / `strata dev`.
 */
import { context, type BuildContext, type Metafile } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** How to bundle: production (minified) or development (readable, quicker to rebuild). */
export interface ClientBundleOptions {
  /** The app's folder (its package.json names the `./client` export). */
  readonly root: string;
  readonly minify?: boolean;
  /** Linked source maps (default); `strata dev` leaves them out: they double a rebuild's time. */
  readonly sourcemap?: boolean;
}

/** What was written: the entry's URL under /assets and its content hash. */
export interface ClientBundle {
  readonly appName: string;
  readonly client: string;
  readonly hash: string;
}

/** The file the `./client` export points at (its `import` or `default` target). */
export function clientEntryOf(manifest: { exports?: unknown }): string | undefined {
  const exports = manifest.exports as Record<string, unknown> | undefined;
  const clientExport = exports?.['./client'] as string | Record<string, unknown> | undefined;
  const file =
    typeof clientExport === 'string'
      ? clientExport
      : (clientExport?.['import'] ?? clientExport?.['default']);
  return typeof file === 'string' ? file : undefined;
}

/** A bundler kept between builds: `strata dev` rebuilds only what changed. */
export interface ClientBundler {
  rebuild(): Promise<ClientBundle>;
  dispose(): Promise<void>;
}

/** Prepares the bundling; throws when the app has no `./client` export. */
export async function createClientBundler({
  root,
  minify = true,
  sourcemap = true,
}: ClientBundleOptions): Promise<ClientBundler> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports?: unknown;
  };
  const clientFile = clientEntryOf(manifest);
  if (!clientFile) throw new Error(`${manifest.name}: package.json has no "./client" export`);
  // The same directory the render service looks in (CLIENT_BUNDLE_DIRECTORY).
  const outdir = join(root, 'dist/public/assets');
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const bundling: BuildContext<{ metafile: true }> = await context({
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
    minify,
    sourcemap: sourcemap ? 'linked' : false,
    jsx: 'automatic',
    entryNames: 'client-[hash]',
    chunkNames: 'chunk-[hash]',
    splitting: true,
    // V8's explicit compile hint (Chromium 136+): compile every function while the script
    // streams in, off the main thread, instead of on its first call. Without it the first client
    // navigation compiles React's commit paths lazily, in the click's task.
    banner: { js: '//# allFunctionsCalledOnLoad' },
    // Sentry's debug logging is dead weight in production.
    define: { 'process.env.NODE_ENV': '"production"', __SENTRY_DEBUG__: 'false' },
    outdir,
    metafile: true,
    logLevel: 'silent',
  });
  return {
    async rebuild() {
      const result = await bundling.rebuild();
      return writeManifest(manifest.name, outdir, result.metafile);
    },
    dispose: () => bundling.dispose(),
  };
}

/** Writes the bundle once; throws when the app has no `./client` export or esbuild fails. */
export async function bundleClient(options: ClientBundleOptions): Promise<ClientBundle> {
  const bundler = await createClientBundler(options);
  try {
    return await bundler.rebuild();
  } finally {
    await bundler.dispose();
  }
}

/** manifest.json for the render service; files of earlier builds are removed. */
function writeManifest(appName: string, outdir: string, metafile: Metafile): ClientBundle {
  const [script, entry] =
    Object.entries(metafile.outputs).find(
      ([file, output]) => file.endsWith('.js') && output.entryPoint,
    ) ?? [];
  if (!script || !entry) throw new Error(`esbuild produced no script for ${appName}`);
  const name = basename(script);
  const hash = name.replace(/^client-|\.js$/g, '');
  // Chunks the entry imports statically (code it shares with the lazy chunks): listed so the
  // document asks for them at once instead of after the entry has been fetched and parsed.
  const shared = entry.imports
    .filter((imported) => imported.kind === 'import-statement')
    .map((imported) => `/assets/${basename(imported.path)}`);
  const written = new Set([
    'manifest.json',
    ...Object.keys(metafile.outputs).map((file) => basename(file)),
  ]);
  for (const file of readdirSync(outdir)) if (!written.has(file)) rmSync(join(outdir, file));
  writeFileSync(
    join(outdir, 'manifest.json'),
    JSON.stringify({ client: `/assets/${name}`, shared, hash }, null, 2),
  );
  return { appName, client: `/assets/${name}`, hash };
}
