/**
 * Ingest routes: `POST /api/:projectId/envelope/` (Sentry-compatible auth) and the same-origin
 * tunnel (DSN from the envelope header), each with a CORS preflight. A client address over its
 * request rate is refused before its body is read; the body then streams into the envelope
 * intake (limits, DSN, project-key rate), and `acceptEnvelope` decides the rest.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Readable } from 'node:stream';
import type { BodyReaders } from '../http/body-readers.js';
import { RelayError } from '../errors.js';
import { corsHeaders, isOriginAllowed, preflightHeaders } from '../http/cors.js';
import { readBody, type BodyLimits, type BodySink, type ReadContext } from '../http/read-body.js';
import { acceptEnvelope, type IngestContext } from '../ingest/accept-envelope.js';
import { createEnvelopeIntake } from '../ingest/envelope-intake.js';
import type { RefusedBodyRate } from '../limits/refused-body-rate.js';
import type { Endpoint } from '../ingest/resolve-dsn.js';
import { addressKey, clientRateLimited } from '../rate-limits/client-limits.js';
import type { RequestLimiter } from '../rate-limits/request-limiter.js';

/** Options of the ingest routes. */
export interface IngestRouteOptions {
  readonly context: IngestContext;
  readonly tunnelPath: string;
  readonly allowedOrigins: readonly string[];
  readonly bodyLimits: BodyLimits;
  /** Requests per client address; absent when that limit is off. */
  readonly addressLimiter: RequestLimiter | undefined;
  readonly isShuttingDown: () => boolean;
  /** Stopped at shutdown: bodies still arriving are cut off then. */
  readonly bodyReaders: BodyReaders;
  /** Shared by every refused body read on. */
  readonly refusedRate: RefusedBodyRate;
}

/** Streams the request body (a raw stream, see the catch-all content-type parser in server.ts). */
export async function readRequestBody(
  request: FastifyRequest,
  limits: BodyLimits,
  sink: BodySink,
  context?: ReadContext,
): Promise<void> {
  const stream = request.body as Readable | undefined;
  if (!stream) return;
  await readBody(
    stream,
    request.headers['content-encoding'],
    request.headers['content-length'],
    limits,
    sink,
    context,
  );
}

/** The address limit's answer: nothing when allowed, else the 429 to send. */
const refusalAfter = (wait: number) => (wait > 0 ? clientRateLimited('address', wait) : undefined);

/** Registers the ingest and tunnel routes. */
export async function ingestRoutes(
  app: FastifyInstance,
  options: IngestRouteOptions,
): Promise<void> {
  const { context, allowedOrigins } = options;

  // A callback hook rather than an async one: it runs on every envelope, and a limit kept in
  // this process has nothing to await (only a shared one answers later).
  const { addressLimiter } = options;
  const limitAddress: onRequestHookHandler | undefined =
    addressLimiter &&
    ((request, _reply, done) => {
      const wait = addressLimiter.take(addressKey(request.ip), context.now());
      if (typeof wait === 'number') done(refusalAfter(wait));
      else void wait.then((shared) => done(refusalAfter(shared)));
    });
  const routeOptions = limitAddress ? { onRequest: limitAddress } : {};

  const handle =
    (endpointOf: (request: FastifyRequest) => Endpoint) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const origin = request.headers.origin;
      void reply.headers(corsHeaders(origin, allowedOrigins));
      if (!isOriginAllowed(origin, allowedOrigins)) {
        throw new RelayError('RELAY_ORIGIN_NOT_ALLOWED', `origin ${origin} may not send envelopes`);
      }
      if (options.isShuttingDown())
        throw new RelayError('RELAY_SHUTTING_DOWN', 'the relay is shutting down');
      const intake = createEnvelopeIntake(context, endpointOf(request), {
        query: request.query as Record<string, unknown>,
        sentryAuthHeader: request.headers['x-sentry-auth'] as string | undefined,
        authorizationHeader: request.headers.authorization,
      });
      try {
        await readRequestBody(request, options.bodyLimits, (chunk) => intake.push(chunk), {
          readers: options.bodyReaders,
          senderKnown: intake.senderKnown,
          refusedRate: options.refusedRate,
        });
        const received = intake.finish();
        const admitted = intake.admitted();
        if (admitted) await admitted;
        const response = await acceptEnvelope(context, received, {
          clientIp: request.ip,
          userAgent: request.headers['user-agent'],
        });
        return reply.code(response.status).headers(response.headers).send(response.body);
      } finally {
        intake.release();
      }
    };

  const preflight = async (request: FastifyRequest, reply: FastifyReply) =>
    reply.code(200).headers(preflightHeaders(request.headers.origin, allowedOrigins)).send();

  app.post<{ Params: { projectId: string } }>(
    '/api/:projectId/envelope/',
    routeOptions,
    handle((request) => ({
      kind: 'ingest',
      projectId: (request.params as { projectId: string }).projectId,
    })),
  );
  app.options('/api/:projectId/envelope/', preflight);
  app.post(
    options.tunnelPath,
    routeOptions,
    handle(() => ({ kind: 'tunnel' })),
  );
  app.options(options.tunnelPath, preflight);
}
