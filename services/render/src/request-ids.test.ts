/**
 * The request id appears once on each line a request logs: through `request.log` as through the
 * service's logger, and a route with its own log level still gets its level.
 */
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { logRequestIds, requestIdMixin, requestLogger } from './request-ids.js';

const lines: string[] = [];
afterEach(() => void (lines.length = 0));

async function appLoggingThroughRequests() {
  const logger = pino(
    { level: 'info', mixin: requestIdMixin },
    { write: (line: string) => void lines.push(line) },
  );
  const app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => 'gateway-id',
    childLoggerFactory: requestLogger,
  });
  await logRequestIds(app);
  app.get('/', async (request) => {
    request.log.info('from the request');
    return 'ok';
  });
  app.get('/quiet', { logLevel: 'error' }, async (request) => {
    request.log.info('below the route level');
    request.log.error('at the route level');
    return 'ok';
  });
  return app;
}

describe('request loggers', () => {
  it('writes reqId once on a line logged through request.log', async () => {
    const app = await appLoggingThroughRequests();
    await app.inject({ url: '/' });
    const line = lines.find((entry) => entry.includes('from the request'));
    expect(line).toBeDefined();
    expect(line!.match(/"reqId"/g)).toHaveLength(1);
    expect(JSON.parse(line!).reqId).toBe('gateway-id');
    await app.close();
  });

  it('keeps a route’s own log level', async () => {
    const app = await appLoggingThroughRequests();
    await app.inject({ url: '/quiet' });
    const messages = lines.map((entry) => JSON.parse(entry).msg);
    expect(messages).toContain('at the route level');
    expect(messages).not.toContain('below the route level');
    await app.close();
  });
});
