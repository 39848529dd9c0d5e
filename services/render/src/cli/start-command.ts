/**
 * `strata start`: the render service (main.ts, with the node flags the image runs it with)
 * serving the built app of this folder in production: ./.env read first when present (values
 * already in the environment win), then NODE_ENV=production, so the production guard refuses
 * development secrets.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppFolder } from './app-folder.js';
import { AppFolderError } from './app-folder.js';
import { ensurePortFree } from './port-check.js';
import { serveEnvironment, servePort } from './serve-environment.js';
import { runService } from './service-process.js';

/** Loads ./.env into process.env without overriding what is set. */
export function loadDotEnv(directory: string): void {
  const file = join(directory, '.env');
  if (existsSync(file)) process.loadEnvFile(file);
}

/** Throws when the folder has no build to serve. */
export function requireBuild(app: AppFolder): void {
  if (!existsSync(join(app.directory, 'dist/public/assets/manifest.json')))
    throw new AppFolderError(`${app.directory} has no build: run \`strata build\` first.`);
}

/** Runs the service until it stops (SIGTERM/SIGINT); resolves with its exit code. */
export async function startCommand(app: AppFolder, portFlag: number | undefined): Promise<number> {
  requireBuild(app);
  loadDotEnv(app.directory);
  const port = servePort(portFlag, process.env);
  await ensurePortFree(port, process.env['RENDER_HOST'] ?? '127.0.0.1');
  return runService({ ...process.env, ...serveEnvironment(app, port, 'production') });
}
