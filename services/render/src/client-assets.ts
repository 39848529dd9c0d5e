/**
 * Finds the app's built browser bundle (written by scripts/build-client.mjs) next to the server.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ClientAssets } from './render-app.js';

/** The directory name of a package's bundle: `@strata/app-catalog` → `strata-app-catalog`. */
export function bundleDirectoryOf(appPackage: string): string {
  return appPackage.replace(/^@/, '').replace(/\//g, '-');
}

/**
 * Reads dist/public/<app>/assets/manifest.json; without a build, pages render without
 * hydration.
 */
export function loadClientAssets(appPackage: string): ClientAssets {
  const directory = fileURLToPath(
    new URL(`../dist/public/${bundleDirectoryOf(appPackage)}/assets/`, import.meta.url),
  );
  const manifest = `${directory}manifest.json`;
  if (!existsSync(manifest)) return { directory: undefined, scripts: [], contentHash: 'dev' };
  const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as {
    client: string;
    shared?: string[];
    hash: string;
  };
  // The shared chunks load as modules beside the entry: fetched in parallel, run once.
  return {
    directory,
    scripts: [parsed.client, ...(parsed.shared ?? [])],
    contentHash: parsed.hash,
  };
}
