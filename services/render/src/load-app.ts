/**
 * Loads the application named by RENDER_APP: a package whose default export is a Strata app,
 * and whose `./client` export's default is the route table its browser bundle hydrates. A
 * missing package or a module of another shape stops start-up with a message that says which.
 */
import { ConfigError } from '@strata/config';
import type { RouteTable } from '@strata/web';
import type { StrataApp } from '@strata/web/server';
import { exportUrl, findInstalledPackage } from './app-package.js';

const APP_NAME = /^[a-z0-9-]+$/;

/** The app's problems, as a list of sentences (empty: it is a Strata app). */
export function appShapeProblems(candidate: unknown): string[] {
  if (typeof candidate !== 'object' || candidate === null)
    return ['its default export is not an object'];
  const app = candidate as Partial<Record<keyof StrataApp<unknown>, unknown>>;
  const problems: string[] = [];
  if (typeof app.name !== 'string' || !APP_NAME.test(app.name))
    problems.push('`name` must be lowercase letters, digits and dashes');
  if (typeof app.start !== 'function') problems.push('`start(host)` must be a function');
  if (app.actions !== undefined && !Array.isArray(app.actions))
    problems.push('`actions`, when given, must be an array');
  else if (app.actions?.some((action) => typeof action?.segment !== 'string'))
    problems.push('each action must name the `segment` it belongs to');
  return problems;
}

/** An app, the route table of its browser bundle and the folder it is installed in. */
export interface LoadedApp {
  readonly definition: StrataApp<unknown>;
  readonly clientRoutes: RouteTable<unknown>;
  readonly directory: string;
}

/**
 * Imports the package `name` installed for `root` (see app-package.ts) and its `./client`;
 * throws ConfigError when it is missing or not an app.
 */
export async function loadApp(name: string, root: string): Promise<LoadedApp> {
  const pkg = findInstalledPackage(name, root);
  const server = await importDefault(exportUrl(pkg, '.'));
  const problems = appShapeProblems(server);
  if (problems.length > 0)
    throw new ConfigError(
      'render service',
      problems.map((problem) => `RENDER_APP: ${name} is not a Strata app: ${problem}`),
    );
  const client = await importDefault(exportUrl(pkg, './client'));
  if (!(client as Partial<RouteTable<unknown>> | undefined)?.byId)
    throw new ConfigError('render service', [
      `RENDER_APP: ${name}/client must export its route table (createRouteTable) as default`,
    ]);
  return {
    definition: server as StrataApp<unknown>,
    clientRoutes: client as RouteTable<unknown>,
    directory: pkg.directory,
  };
}

async function importDefault(url: string): Promise<unknown> {
  return ((await import(url)) as { default?: unknown }).default;
}
