/**
 * Loads the application named by RENDER_APP: a package whose default export is a Strata app,
 * and whose `./client` export's default is the route table its browser bundle hydrates. A wrong
 * name or a module of another shape stops start-up with a message that says which.
 */
import { ConfigError } from '@strata/config';
import type { RouteTable } from '@strata/web';
import type { StrataApp } from '@strata/web/server';

const APP_NAME = /^[a-z0-9-]+$/;

/** The app's problems, as a list of sentences (empty: it is a Strata app). */
export function appShapeProblems(candidate: unknown): string[] {
  if (typeof candidate !== 'object' || candidate === null)
    return ['its default export is not an object'];
  const app = candidate as Partial<Record<keyof StrataApp<unknown>, unknown>>;
  const problems: string[] = [];
  if (typeof app.name !== 'string' || !APP_NAME.test(app.name))
    problems.push('`name` must be lowercase letters, digits and dashes');
  if (typeof app.notFoundRoot !== 'string' || app.notFoundRoot === '')
    problems.push('`notFoundRoot` must name a root layout');
  if (typeof app.start !== 'function') problems.push('`start(host)` must be a function');
  if (app.actions !== undefined && !Array.isArray(app.actions))
    problems.push('`actions`, when given, must be an array');
  return problems;
}

/** An app and the route table of its browser bundle. */
export interface LoadedApp {
  readonly definition: StrataApp<unknown>;
  readonly clientRoutes: RouteTable<unknown>;
}

/** Imports `specifier` and its `./client`; throws ConfigError when they are not an app's. */
export async function loadApp(specifier: string): Promise<LoadedApp> {
  const server = await importDefault(specifier, specifier);
  const problems = appShapeProblems(server);
  if (problems.length > 0)
    throw new ConfigError(
      'render service',
      problems.map((problem) => `RENDER_APP: ${specifier} is not a Strata app: ${problem}`),
    );
  const client = await importDefault(`${specifier}/client`, specifier);
  if (!(client as Partial<RouteTable<unknown>> | undefined)?.byId)
    throw new ConfigError('render service', [
      `RENDER_APP: ${specifier}/client must export its route table (createRouteTable) as default`,
    ]);
  return { definition: server as StrataApp<unknown>, clientRoutes: client as RouteTable<unknown> };
}

async function importDefault(specifier: string, app: string): Promise<unknown> {
  try {
    return ((await import(specifier)) as { default?: unknown }).default;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String(error).includes(`'${app}'`))
      throw new ConfigError('render service', [
        `RENDER_APP: ${app} is not installed (add it to the render service's dependencies)`,
      ]);
    if (code === 'ERR_PACKAGE_PATH_NOT_EXPORTED')
      throw new ConfigError('render service', [
        `RENDER_APP: ${app} has no ${specifier === app ? 'main' : './client'} export`,
      ]);
    throw error;
  }
}
