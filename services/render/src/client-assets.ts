/**
 * Finds the app's browser bundle, which the app's own build writes (strata-bundle-client, from
 * @strata/web) into its package, so the render service serves any app without building it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@strata/config';
import type { ClientAssets } from './render-app.js';

/** Where, inside an app's package, its bundle and manifest.json are. */
export const CLIENT_BUNDLE_DIRECTORY = 'dist/public/assets';

/** Reads the bundle's manifest.json in the app's folder; a ConfigError when there is none. */
export function loadClientAssets(appName: string, appDirectory: string): ClientAssets {
  const directory = join(appDirectory, CLIENT_BUNDLE_DIRECTORY);
  const manifest = join(directory, 'manifest.json');
  if (!existsSync(manifest))
    throw new ConfigError('render service', [
      `RENDER_APP: ${appName} has no client bundle: ${manifest} is missing (the app's build writes it with strata-bundle-client)`,
    ]);
  const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as {
    client: string;
    shared?: string[];
    hash: string;
  };
  // The shared chunks load as modules beside the entry: fetched in parallel, run once.
  return {
    directory: `${directory}/`,
    scripts: [parsed.client, ...(parsed.shared ?? [])],
    contentHash: parsed.hash,
  };
}
