/**
 * Hosts the notes app the way a render service would, through the `StrataApp` contract only:
 * action ids from the app's actions (each segment's forms read its own), `start(host)`, then the
 * runtime's web routes on a bare Fastify instance (no segment cache, no telemetry).
 */
import {
  createActionRegistry,
  createTrustedProxies,
  webRoutes,
  type RunningApp,
  type RuntimeLogger,
  type ServerErrorContext,
  type WebRuntime,
} from '@strata/web/server';
import Fastify, { type FastifyInstance } from 'fastify';
import notesApp, { type NotesServices } from '../../src/index.js';

/** The origin the test pages are served from (the action origin check allows it). */
export const ORIGIN = 'http://notes.test';

/** A served app and what the tests inspect. */
export interface NotesServer {
  readonly app: FastifyInstance;
  readonly running: RunningApp<NotesServices>;
  /** Each action's public id by name. */
  readonly actionIds: Readonly<Record<string, string>>;
  /** Tags revalidated by each action, in order. */
  readonly revalidated: string[][];
  /** Server errors the runtime reported (what telemetry would send). */
  readonly reported: ServerErrorContext[];
  readonly logged: { level: string; details: object; message: string }[];
  close(): Promise<void>;
}

/** Starts the app with `env` (NOTES_STATS_DELAY defaults to 0 here) and serves it. */
export async function serveNotes(env: Record<string, string> = {}): Promise<NotesServer> {
  const logged: NotesServer['logged'] = [];
  const log =
    (level: string) =>
    (details: object, message: string): void =>
      void logged.push({ level, details, message });
  const logger: RuntimeLogger = { error: log('error'), warn: log('warn'), info: log('info') };
  const actions = notesApp.actions ?? [];
  const registry = createActionRegistry<NotesServices>('test-salt-123', actions as never);
  const actionIds = Object.fromEntries(actions.map((a) => [a.name, registry.idOf(a)]));
  const running = await notesApp.start({
    env: { NOTES_STATS_DELAY: '0', ...env },
    logger,
  });
  const revalidated: string[][] = [];
  const reported: ServerErrorContext[] = [];
  const runtime: WebRuntime<NotesServices> = {
    table: running.routes,
    buildId: 'notes-test',
    clientScripts: ['/assets/notes-client.js'],
    actionIds: registry.bySegment,
    renderTimeoutMs: 10_000,
    logger,
    onServerError: (_error, context) => void reported.push(context),
  };
  const app = Fastify();
  await app.register(webRoutes<NotesServices>, {
    runtime,
    actions: registry,
    servicesFor: (request, { traceId, signal }) =>
      running.servicesFor({ headers: request.headers, traceId, requestId: request.id, signal }),
    publicOrigins: [ORIGIN],
    trustedProxies: createTrustedProxies([]),
    actionBodyLimit: 64 * 1024,
    revalidate: async (tags) => void revalidated.push([...tags]),
  });
  await app.ready();
  return {
    app,
    running,
    actionIds,
    revalidated,
    reported,
    logged,
    async close() {
      await app.close();
      await running.close();
    },
  };
}
