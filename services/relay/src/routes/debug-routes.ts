/**
 * `POST /debug/explain`: explains what the relay would do with a posted envelope (which DSN it
 * matched, each item's fate and reason, the answer the client would get) without spooling or
 * forwarding it. Authorised like the tunnel (envelope `dsn`), or like ingest with
 * `?project=<id>&sentry_key=<key>`; the same limits apply, the project key's request count not.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BodyLimits } from '../http/read-body.js';
import { analyzeEnvelope, type IngestContext } from '../ingest/accept-envelope.js';
import { createEnvelopeIntake } from '../ingest/envelope-intake.js';
import { readRequestBody } from './ingest-routes.js';

/** Options of the debug route. */
export interface DebugRouteOptions {
  readonly context: IngestContext;
  readonly bodyLimits: BodyLimits;
}

/** Registers the explain endpoint. */
export async function debugRoutes(app: FastifyInstance, options: DebugRouteOptions): Promise<void> {
  const context: IngestContext = { ...options.context, keyLimiter: undefined };
  app.post('/debug/explain', async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    const endpoint =
      typeof query.project === 'string'
        ? ({ kind: 'ingest', projectId: query.project } as const)
        : ({ kind: 'tunnel' } as const);
    const intake = createEnvelopeIntake(context, endpoint, {
      query,
      sentryAuthHeader: request.headers['x-sentry-auth'] as string | undefined,
    });
    let analysis;
    try {
      await readRequestBody(request, options.bodyLimits, (chunk) => intake.push(chunk));
      analysis = analyzeEnvelope(context, intake.finish(), {
        clientIp: request.ip,
        userAgent: request.headers['user-agent'],
      });
    } finally {
      intake.release();
    }
    const { result } = analysis;
    return {
      dsn: analysis.dsn.key,
      upstream: analysis.dsn.target.kind,
      wouldRespond: result.envelope ? 200 : result.fullyRateLimited ? 429 : 200,
      wouldForward: result.envelope !== null,
      modified: result.changed,
      items: result.decisions,
      drops: result.drops,
      rateLimits: analysis.rateLimitsHeader ?? null,
    };
  });
}
