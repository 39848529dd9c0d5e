/**
 * `strata start`: the render service (main.ts, as the image runs it) serving the built app of
 * this folder in production: ./.env read first when present (values already in the environment
 * win), then NODE_ENV=production, so the production guard refuses development secrets.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AppFolder } from './app-folder.js';
import { AppFolderError } from './app-folder.js';
import { ensurePortFree } from './port-check.js';
import { serveEnvironment, servePort } from './serve-environment.js';

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

/** Starts the service in this process; it runs until SIGTERM/SIGINT. */
export async function startCommand(app: AppFolder, portFlag: number | undefined): Promise<void> {
  requireBuild(app);
  loadDotEnv(app.directory);
  const port = servePort(portFlag, process.env);
  await ensurePortFree(port, process.env['RENDER_HOST'] ?? '127.0.0.1');
  Object.assign(process.env, serveEnvironment(app, port, 'production'));
  // The composition root reads process.env and listens.
  await import('../main.js');
}
