/**
 * `strata build`: dist/ from scratch: the server code (compile-server.ts), then the browser
 * bundle from it (@strata/web/build, the same bundling as `strata-bundle-client`).
 */
import { bundleClient } from '@strata/web/build';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppFolder } from './app-folder.js';
import { compileServer } from './compile-server.js';

/** What a build wrote. */
export interface BuildResult {
  readonly files: number;
  readonly client: string;
}

/** Builds the app; `minify` false for development (quicker, readable). */
export async function buildApp(app: AppFolder, { minify = true } = {}): Promise<BuildResult> {
  rmSync(join(app.directory, 'dist'), { recursive: true, force: true });
  const files = await compileServer(app.directory);
  const { client } = await bundleClient({ root: app.directory, minify });
  return { files, client };
}
