/**
 * Starts the loaded application with what the render service gives every app: the environment,
 * a logger and the metrics registry; derives its actions' ids from ACTION_SALT.
 */
import { ConfigError } from '@strata/config';
import type { RouteTable } from '@strata/web';
import {
  createActionRegistry,
  notFoundRootOf,
  type ActionRegistry,
  type RunningApp,
  type RuntimeLogger,
  type StrataApp,
} from '@strata/web/server';
import type { Registry } from 'prom-client';
import { DEVELOPMENT_ACTION_SALT, type RenderConfig } from './config.js';

/** An app as the render service serves it. */
export interface ServedApp<Services = unknown> {
  readonly definition: StrataApp<Services>;
  readonly running: RunningApp<Services>;
  readonly actions: ActionRegistry<Services>;
}

/** Starts `definition`. */
export async function startServedApp<Services>(
  definition: StrataApp<Services>,
  deps: {
    readonly config: RenderConfig;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly logger: RuntimeLogger;
    readonly metrics?: Registry | undefined;
    /** The browser bundle's table: every segment the server renders must be in it to hydrate. */
    readonly clientRoutes?: RouteTable<unknown> | undefined;
  },
): Promise<ServedApp<Services>> {
  const salt = deps.config.ACTION_SALT ?? DEVELOPMENT_ACTION_SALT;
  if (!deps.config.ACTION_SALT)
    deps.logger.warn({}, 'ACTION_SALT is unset: using the development salt; set it in production');
  const definitions = definition.actions ?? [];
  const actions = createActionRegistry<Services>(salt, definitions as never);
  const running = await definition.start({
    env: deps.env,
    logger: deps.logger,
    ...(deps.metrics && { metrics: deps.metrics }),
  });
  const problems = [
    ...routeProblems(running.routes, deps.clientRoutes),
    ...actionProblems(definitions, deps.clientRoutes ?? (running.routes as RouteTable<unknown>)),
  ];
  if (problems.length > 0) {
    await running.close();
    throw new ConfigError(
      'render service',
      problems.map((problem) => `RENDER_APP: ${definition.name}: ${problem}`),
    );
  }
  return { definition, running, actions };
}

/** What is wrong with the started app's routes (empty: nothing). */
function routeProblems<Services>(
  routes: RouteTable<Services>,
  clientRoutes: RouteTable<unknown> | undefined,
): string[] {
  const problems: string[] = [];
  const notFound = notFoundRootOf(routes);
  if ('problem' in notFound)
    problems.push(`no root layout for not-found pages: ${notFound.problem}`);
  const missing = [...routes.byId.keys()].filter((id) => !clientRoutes?.byId.has(id));
  if (clientRoutes && missing.length > 0)
    problems.push(
      `segments the browser bundle lacks (they could not hydrate): ${missing.join(', ')}`,
    );
  return problems;
}

/**
 * Actions whose segment the app's whole table (the browser's, which keeps optional pages) lacks:
 * no form could get their ids.
 */
function actionProblems(
  actions: readonly { readonly name: string; readonly segment: string }[],
  routes: RouteTable<unknown>,
): string[] {
  return actions
    .filter((action) => !routes.byId.has(action.segment))
    .map(
      (action) =>
        `action "${action.name}" belongs to segment "${action.segment}", which its routes lack`,
    );
}
