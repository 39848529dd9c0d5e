/**
 * GET /readyz: whether this replica can serve pages. Ready while the app says it can (the
 * catalogue: at least one data replica answers a PING, probed on each request so a vanished
 * backend is noticed within the probe's timeout); a shared cache that is down only degrades the
 * answer, because pages are still served, uncached.
 */
import type { AppReadiness } from '@strata/web/server';
import type { FastifyInstance } from 'fastify';

export function registerReadiness(
  app: FastifyInstance,
  deps: {
    readonly buildId: string;
    /** Absent: the app is ready whenever the service is up. */
    readonly appReadiness?: (() => Promise<AppReadiness>) | undefined;
    /** Absent without a shared cache. */
    readonly cacheHealthy?: (() => boolean) | undefined;
  },
): void {
  app.get('/readyz', async (_request, reply) => {
    const { ready, details } = deps.appReadiness ? await deps.appReadiness() : { ready: true };
    const cache = deps.cacheHealthy ? (deps.cacheHealthy() ? 'ok' : 'degraded') : 'none';
    return reply.code(ready ? 200 : 503).send({
      status: ready ? 'ok' : 'unavailable',
      build: deps.buildId,
      ...details,
      cache,
    });
  });
}
