/**
 * `strata dev`: builds the app (unminified), serves it through the dev proxy on the public port,
 * and after every change under src/ rebuilds, restarts the render server on its internal port
 * and reloads the open pages. Requests wait while it restarts. Build and render errors are
 * printed here and shown on the page; the last good server keeps nothing stale: a failed build
 * serves the error page until the next change.
 */
import { join } from 'node:path';
import type { AppFolder } from '../app-folder.js';
import { createAppBuilder } from '../build-command.js';
import { ensurePortFree, freePort } from '../port-check.js';
import { serveEnvironment, servePort } from '../serve-environment.js';
import { DevEvents } from './dev-events.js';
import type { DevProblem } from './dev-page-script.js';
import { createDevProxy } from './dev-proxy.js';
import { RenderChild } from './render-child.js';
import { watchSources } from './source-watcher.js';

type State = { port: number } | { problem: DevProblem };

export async function devCommand(app: AppFolder, portFlag: number | undefined): Promise<void> {
  const port = servePort(portFlag, process.env);
  const host = process.env['RENDER_HOST'] ?? '127.0.0.1';
  await ensurePortFree(port, host);
  const events = new DevEvents();
  const print = (text: string) => console.log(text);
  const builder = createAppBuilder(app, { development: true });
  let generation = 0;
  let child: RenderChild | undefined;
  const newChild = () =>
    new RenderChild({
      print,
      onProblem: (problem, requestId) => events.problem(problem, requestId),
    });
  // The next server, already loading the service's modules.
  let standby = newChild();
  let current: Promise<State> = Promise.resolve({ problem: { title: 'Starting', detail: '' } });

  async function rebuild(reason: string): Promise<State> {
    const started = Date.now();
    try {
      await builder.build();
    } catch (error) {
      const problem = { title: 'Build failed', detail: (error as Error).message };
      print(`strata dev: build failed:\n${problem.detail}`);
      events.problem(problem, undefined);
      return { problem };
    }
    const built = Date.now();
    // The old server stops while the new one starts (another port).
    void child?.stop();
    const internal = await freePort();
    child = standby;
    child.start(internal, {
      LOG_LEVEL: process.env['LOG_LEVEL'] ?? 'warn',
      ...serveEnvironment(app, internal, 'development'),
    });
    try {
      await child.ready();
    } catch (error) {
      standby = newChild();
      const problem = { title: 'The app did not start', detail: (error as Error).message };
      print(`strata dev: the app did not start:\n${problem.detail}`);
      events.problem(problem, undefined);
      return { problem };
    }
    // The next standby loads only now: on a busy machine it would slow this start down.
    standby = newChild();
    const next = standby;
    void next.warm.then(() => {
      if (next === standby) print('strata dev: ready for the next change');
    });
    generation += 1;
    print(
      `strata dev: ${reason}, serving http://${host}:${port} (build ${built - started} ms, start ${Date.now() - built} ms)`,
    );
    events.broadcast('reload', String(generation));
    return { port: internal };
  }

  // One rebuild at a time; a change during one queues the next.
  const schedule = (reason: string) => {
    current = current.then(
      () => rebuild(reason),
      () => rebuild(reason),
    );
  };
  schedule('built');
  const proxy = createDevProxy({ ready: () => current, generation: () => generation }, events);
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject);
    proxy.listen(port, host, resolve);
  });
  const watcher = watchSources(join(app.directory, 'src'), (files) =>
    schedule(`rebuilt after a change to ${files.slice(0, 3).join(', ')}`),
  );

  const shutdown = () => {
    watcher.close();
    events.close();
    void builder.dispose();
    proxy.close();
    proxy.closeAllConnections();
    void current
      .finally(() => Promise.all([child?.stop(), standby.stop()]))
      .then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}
