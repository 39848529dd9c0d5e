/**
 * Maps request-level failures (body too large, unparsable, wrong media type) to the documented
 * `{ error: { code, message } }` shape, keeps the status of any other client error a plugin
 * raised (the static files' 403, a bad range's 416), and answers anything else with a digest
 * without internals. Only those server errors are logged as failures and reported.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
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
    const status = error.statusCode;
    if (status !== undefined && status >= 400 && status < 500) {
      const text = STATUS_CODES[status] ?? 'Client Error';
      // The status's own words, never the error's message (it may name files or internals).
      return reply
        .code(status)
        .send({ error: { code: clientErrorCode(text), message: `${text}.` } });
    }
    const digest = errorDigest(error);
    logger.error({ err: error, digest, url: request.url }, 'request failed');
    const traceId = runtime.telemetry?.currentTrace()?.traceId ?? traceIdOf(request.headers);
    runtime.onServerError?.(error, { digest, traceId, url: request.url });
    return reply
      .code(status !== undefined && status >= 500 && status < 600 ? status : 500)
      .send({ error: { code: 'INTERNAL', message: `Internal error (digest ${digest}).` } });
  };
}

/** "Range Not Satisfiable" → RANGE_NOT_SATISFIABLE: the documented code of a kept 4xx. */
function clientErrorCode(statusText: string): string {
  return statusText
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}
