/**
 * Maps request-level failures (body too large, unparsable, wrong media type) to the documented
 * `{ error: { code, message } }` shape, and anything unexpected to a digest without internals.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorDigest } from '../error-digest.js';
import { traceIdOf } from '../request-context.js';
import type { WebRuntime } from '../web-runtime.js';

const KNOWN: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'BODY_TOO_LARGE',
    message: 'The request body is larger than the limit.',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Send JSON or a URL-encoded form.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'BAD_BODY',
    message: 'The JSON body is empty.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'BAD_BODY',
    message: 'Content-Length does not match the body.',
  },
};

/** A Fastify error handler for the web routes. */
export function createErrorResponder(runtime: WebRuntime<never>) {
  const { logger } = runtime;
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = error.code ? KNOWN[error.code] : undefined;
    if (known)
      return reply.code(known.status).send({ error: { code: known.code, message: known.message } });
    if (
      error instanceof SyntaxError ||
      (error.statusCode === 400 && error.code?.startsWith('FST_ERR_CTP'))
    )
      return reply
        .code(400)
        .send({ error: { code: 'BAD_BODY', message: 'The request body could not be parsed.' } });
    // The client went away mid-request (an aborted upload): nobody to answer, nothing to report.
    if (request.raw.aborted || error.name === 'AbortError' || error.code === 'ECONNRESET') {
      logger.info({ url: request.url, reason: error.message }, 'client went away');
      return reply.code(499).send();
    }
    const digest = errorDigest(error);
    logger.error({ err: error, digest, url: request.url }, 'request failed');
    const traceId = runtime.telemetry?.currentTrace()?.traceId ?? traceIdOf(request.headers);
    runtime.onServerError?.(error, { digest, traceId, url: request.url });
    return reply
      .code(500)
      .send({ error: { code: 'INTERNAL', message: `Internal error (digest ${digest}).` } });
  };
}
