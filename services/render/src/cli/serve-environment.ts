/**
 * The render service's variables for an app folder: the app is the folder's own package
 * (RENDER_APP, RENDER_APP_ROOT), on the port asked for, with the embedded defaults (no REDIS_URL:
 * the in-process segment cache; no data service). Pure: the commands apply it.
 */
import type { AppFolder } from './app-folder.js';
import { parsePort } from './cli-args.js';

export const DEFAULT_PORT = 3000;

/** The port: --port, else PORT, else RENDER_PORT, else 3000. */
export function servePort(
  flag: number | undefined,
  env: Readonly<Record<string, string | undefined>>,
): number {
  if (flag !== undefined) return flag;
  const text = env['PORT'] ?? env['RENDER_PORT'];
  return text === undefined ? DEFAULT_PORT : parsePort(text);
}

/** What `strata start` (production) or a `strata dev` server (development) adds to the env. */
export function serveEnvironment(
  app: AppFolder,
  port: number,
  mode: 'production' | 'development',
): Record<string, string> {
  return {
    RENDER_APP: app.name,
    RENDER_APP_ROOT: app.directory,
    RENDER_PORT: String(port),
    NODE_ENV: mode,
  };
}
