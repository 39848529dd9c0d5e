/**
 * The error responder on a real Fastify app: a client error a plugin raised keeps its status
 * and is not reported; anything else is a server error with a digest, reported once.
 */
import Fastify from 'fastify';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import {
  createErrorResponder,
  type ServerErrorContext,
  type WebRuntime,
} from '../src/server/index.js';
import { testRoutes } from './fixtures/test-app.js';

async function appThrowing(error: Error) {
  const reported: ServerErrorContext[] = [];
  const runtime: WebRuntime<never> = {
    table: testRoutes as never,
    buildId: 'build-1',
    clientScripts: [],
    renderTimeoutMs: 1000,
    logger: pino({ level: 'silent' }),
    onServerError: (_error, context) => void reported.push(context),
  };
  const app = Fastify();
  app.setErrorHandler(createErrorResponder(runtime));
  app.get('/', () => {
    throw error;
  });
  const response = await app.inject({ url: '/' });
  return { status: response.statusCode, body: response.json(), reported };
}

const withStatus = (message: string, statusCode: number) =>
  Object.assign(new Error(message), { statusCode });

describe('the error responder', () => {
  it.each([
    [403, 'FORBIDDEN', 'Forbidden.'],
    [404, 'NOT_FOUND', 'Not Found.'],
    [416, 'RANGE_NOT_SATISFIABLE', 'Range Not Satisfiable.'],
  ])(
    'keeps a client error’s %i, in its own words, and reports nothing',
    async (code, name, text) => {
      const answer = await appThrowing(withStatus('/srv/app/secret.txt is outside the root', code));
      expect(answer).toEqual({
        status: code,
        body: { error: { code: name, message: text } },
        reported: [],
      });
    },
  );

  it.each([
    ['an error without a status', new Error('SELECT secret FROM users'), 500],
    ['an error raised with 503', withStatus('upstream db.internal:5432 down', 503), 503],
  ])('answers %s as a server error with a digest, reported once', async (_name, error, code) => {
    const answer = await appThrowing(error);
    expect(answer.status).toBe(code);
    expect(answer.body).toEqual({
      error: {
        code: 'INTERNAL',
        message: expect.stringMatching(/^Internal error \(digest [0-9a-f]{10}\)\.$/),
      },
    });
    expect(answer.reported).toHaveLength(1);
  });
});
