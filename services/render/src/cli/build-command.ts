/**
 * `strata build`: dist/ from scratch: the server code (compile-server.ts), then the browser
 * bundle from it (@strata/web/build, the same bundling as `strata-bundle-client`). `strata dev`
 * keeps one AppBuilder and rebuilds with it after every change.
 */
import { createClientBundler, type ClientBundler } from '@strata/web/build';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AppFolder } from './app-folder.js';
import { createServerCompiler } from './compile-server.js';

/** What a build wrote. */
export interface BuildResult {
  readonly files: number;
  readonly client: string;
}

export interface AppBuilder {
  build(): Promise<BuildResult>;
  dispose(): Promise<void>;
}

/** A builder of the app; `development`: the browser bundle unminified, without source maps (quicker). */
export function createAppBuilder(app: AppFolder, { development = false } = {}): AppBuilder {
  rmSync(join(app.directory, 'dist'), { recursive: true, force: true });
  const server = createServerCompiler(app.directory);
  let client: ClientBundler | undefined;
  return {
    async build() {
      const files = await server.rebuild();
      // The client bundle starts from the compiled ./client export, so after the server code.
      client ??= await createClientBundler({
        root: app.directory,
        minify: !development,
        sourcemap: !development,
      });
      const { client: script } = await client.rebuild();
      return { files, client: script };
    },
    async dispose() {
      await Promise.all([server.dispose(), client?.dispose()]);
    },
  };
}

/** Builds the app once. */
export async function buildApp(app: AppFolder): Promise<BuildResult> {
  const builder = createAppBuilder(app);
  try {
    return await builder.build();
  } finally {
    await builder.dispose();
  }
}
