/**
 * The test application on a real Fastify instance (inject, or listen on port 0 for streaming).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import {
  createActionRegistry,
  createTrustedProxies,
  registerSecurityHeaders,
  webRoutes,
  type SecurityPolicy,
  type ServerErrorContext,
  type WebRuntime,
} from '../../src/server/index.js';
import {
  ACTION_SALT,
  createTestServices,
  saveNote,
  testRoutes,
  type TestServices,
} from '../fixtures/test-app.js';

/** A running test server and what the tests inspect. */
export interface TestServer {
  readonly app: FastifyInstance;
  readonly services: TestServices;
  readonly logged: Record<string, unknown>[];
  readonly revalidated: string[][];
  /** Every error the runtime reported as a server error (what telemetry would send). */
  readonly reported: ServerErrorContext[];
  readonly actionId: string;
}

/**
 * Builds the server; `security` adds the security headers.
 * `publicOrigins` defaults to http://shop.test; empty makes the origin check derive the server's
 * own origin.
 */
export async function buildTestServer(
  options: {
    renderTimeoutMs?: number;
    publicOrigins?: readonly string[];
    security?: SecurityPolicy;
  } = {},
): Promise<TestServer> {
  const logged: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void logged.push(JSON.parse(line)) },
  );
  const services = createTestServices();
  const revalidated: string[][] = [];
  const reported: ServerErrorContext[] = [];
  const actions = createActionRegistry<TestServices>(ACTION_SALT, [saveNote as never]);
  const actionId = actions.idOf(saveNote);
  const runtime: WebRuntime<TestServices> = {
    table: testRoutes,
    buildId: 'build-1',
    clientScripts: ['/assets/client-abc123.js'],
    actionIds: actions.bySegment,
    renderTimeoutMs: options.renderTimeoutMs ?? 10_000,
    logger,
    onServerError: (_error, context) => void reported.push(context),
  };
  const app = Fastify();
  if (options.security) registerSecurityHeaders(app, options.security);
  await app.register(webRoutes<TestServices>, {
    runtime,
    actions,
    servicesFor: () => services,
    publicOrigins: options.publicOrigins ?? ['http://shop.test'],
    trustedProxies: createTrustedProxies(['10.0.0.0/8']),
    actionBodyLimit: 1024 * 1024,
    revalidate: async (tags) => {
      revalidated.push([...tags]);
    },
  });
  await app.ready();
  return { app, services, logged, revalidated, reported, actionId };
}
