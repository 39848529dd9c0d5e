/**
 * Operational routes: `/healthz` (live while the process serves), `/readyz` (config loaded,
 * spool below 95 % of its bound, upstream answered the last attempt) and Prometheus `/metrics`.
 */
import type { FastifyInstance } from 'fastify';
import type { RelayMetrics } from '../metrics.js';
import type { SpoolStats } from '../spool/spool.js';

/** Inputs of the readiness check. */
export interface OpsRouteOptions {
  readonly metrics: RelayMetrics;
  readonly configured: boolean;
  readonly spoolStats: () => SpoolStats;
  readonly upstreamReachable: () => boolean;
  readonly isShuttingDown: () => boolean;
}

const SPOOL_HIGH_WATERMARK = 0.95;

/** Registers health, readiness and metrics. */
export async function opsRoutes(app: FastifyInstance, options: OpsRouteOptions): Promise<void> {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const spool = options.spoolStats();
    const checks = {
      config: { ok: options.configured },
      spool: {
        ok: spool.bytes < spool.maxBytes * SPOOL_HIGH_WATERMARK,
        bytes: spool.bytes,
        maxBytes: spool.maxBytes,
      },
      upstream: { ok: options.upstreamReachable() },
      shutdown: { ok: !options.isShuttingDown() },
    };
    const ready = Object.values(checks).every((check) => check.ok);
    return reply.code(ready ? 200 : 503).send({ ready, checks });
  });

  app.get('/metrics', async (_request, reply) => {
    const body = await options.metrics.registry.metrics();
    return reply.type(options.metrics.registry.contentType).send(body);
  });
}
