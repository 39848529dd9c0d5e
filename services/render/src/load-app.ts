/**
 * Loads the application named by RENDER_APP: a package whose default export is a Strata app.
 * A wrong name or a module of another shape stops start-up with a message that says which.
 */
import { ConfigError } from '@strata/config';
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

/** Imports `specifier` and returns its default export; throws ConfigError when it is not an app. */
export async function loadApp(specifier: string): Promise<StrataApp<unknown>> {
  let module: { default?: unknown };
  try {
    module = (await import(specifier)) as { default?: unknown };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String(error).includes(`'${specifier}'`))
      throw new ConfigError('render service', [
        `RENDER_APP: ${specifier} is not installed (add it to the render service's dependencies)`,
      ]);
    throw error;
  }
  const problems = appShapeProblems(module.default);
  if (problems.length > 0)
    throw new ConfigError(
      'render service',
      problems.map((problem) => `RENDER_APP: ${specifier} is not a Strata app: ${problem}`),
    );
  return module.default as StrataApp<unknown>;
}
