/**
 * GET /readyz: whether this replica can serve pages. Ready while at least one data replica
 * answers a PING (each probe pings, so a vanished data service is noticed within the probe's
 * timeout, not the keepalive's); a shared cache that is down only degrades the answer, because
 * pages are still served, uncached.
 */
import type { GrpcTransport } from '@strata/catalog-client';
import type { FastifyInstance } from 'fastify';

/** How long a data replica may take to answer the probe's PING. */
const DATA_PROBE_MS = 1000;

export function registerReadiness(
  app: FastifyInstance,
  deps: {
    readonly buildId: string;
    readonly dataTransport: Pick<GrpcTransport, 'probe'>;
    /** Absent without a shared cache. */
    readonly cacheHealthy?: (() => boolean) | undefined;
  },
): void {
  app.get('/readyz', async (_request, reply) => {
    const { reachable, replicas } = await deps.dataTransport.probe(DATA_PROBE_MS);
    const cache = deps.cacheHealthy ? (deps.cacheHealthy() ? 'ok' : 'degraded') : 'none';
    const ready = reachable > 0;
    return reply.code(ready ? 200 : 503).send({
      status: ready ? 'ok' : 'unavailable',
      build: deps.buildId,
      data: { reachable, replicas },
      cache,
    });
  });
}
