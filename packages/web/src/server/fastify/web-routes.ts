/**
 * Fastify adapter for the renderers: GET of any page answers a document or, with
 * `Strata-Payload: 1`, a payload; POST runs a server action. Registered last, after the
 * application's own routes (`/api`, assets).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HEADERS } from '../../protocol/constants.js';
import { encodeTreeHeader, parseTreeHeader } from '../../protocol/tree-header.js';
import type { ActionRegistry } from '../actions/action-registry.js';
import { handleAction, type ActionHooks } from '../actions/handle-action.js';
import { effectiveOrigin, type TrustedProxies } from '../actions/origin-check.js';
import { renderDocument } from '../render-document.js';
import { createErrorResponder } from './error-responses.js';
import { declarePageRoute, setPageRoute } from './page-route.js';
import { renderPayload } from '../render-payload.js';
import { parseCookies, traceIdOf } from '../request-context.js';
import { resolveRoute } from '../resolve-route.js';
import { requestUrl } from '../same-site-location.js';
import { scriptNonceOf } from '../security/security-headers.js';
import type { RenderRequest, RenderResponse, WebRuntime } from '../web-runtime.js';

/** Options of the web routes. */
export interface WebRoutesOptions<Services> {
  readonly runtime: WebRuntime<Services>;
  readonly actions: ActionRegistry<Services>;
  /**
   * The services loaders and actions get for one request. `signal` aborts when the client goes
   * away before the answer is complete (not merely when its request body has been read).
   */
  readonly servicesFor: (
    request: FastifyRequest,
    context: { traceId: string; signal: AbortSignal },
  ) => Services;
  /** Origins whose pages may call actions; empty: the server's own origin only. */
  readonly publicOrigins: readonly string[];
  readonly trustedProxies: TrustedProxies;
  /** Largest action body, in bytes (413 beyond). */
  readonly actionBodyLimit: number;
  readonly revalidate?: ActionHooks['revalidate'];
}

/** Field of a plain HTML form that names the action. */
export const FORM_ACTION_FIELD = '$action';

/** Registers GET and POST for every path not claimed by another route. */
export async function webRoutes<Services>(
  app: FastifyInstance,
  options: WebRoutesOptions<Services>,
): Promise<void> {
  const { runtime } = options;
  app.setErrorHandler(createErrorResponder(runtime as WebRuntime<never>));
  declarePageRoute(app);

  // Actions take JSON and URL-encoded forms only: a text/plain body (an HTML form can send one
  // cross-site without a preflight) is refused with 415 instead of reaching a schema as a string.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: options.actionBodyLimit },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  function renderRequest(
    request: FastifyRequest,
    reply: FastifyReply,
    url: URL,
  ): RenderRequest<Services> {
    // The tracing SDK's trace when one is recorded (it continues an incoming one), so logs,
    // error screens and reports all name the same trace.
    const traceId = runtime.telemetry?.currentTrace()?.traceId ?? traceIdOf(request.headers);
    const controller = new AbortController();
    // 'close' on the response before it finished means the client went away: stop work.
    // 'finish' (the whole answer handed to the socket) counts as finished too: `writableFinished`
    // also waits for the socket's buffer to drain, and is never set by Fastify's inject; work a
    // request started for others (a cache regeneration) must outlive a completed answer.
    let finished = false;
    reply.raw.once('finish', () => {
      finished = true;
    });
    reply.raw.on('close', () => {
      if (!finished && !reply.raw.writableFinished) controller.abort();
    });
    const nonce = scriptNonceOf(reply);
    // Resolved once here, for the renderers and for the request's metrics label.
    const route = resolveRoute(runtime, url.pathname);
    setPageRoute(request, route.pattern);
    return {
      ...(nonce && { nonce }),
      url,
      route,
      headers: request.headers,
      cookies: parseCookies(request.headers.cookie),
      services: options.servicesFor(request, { traceId, signal: controller.signal }),
      signal: controller.signal,
      traceId,
    };
  }

  function send(reply: FastifyReply, response: RenderResponse, signal: AbortSignal): FastifyReply {
    if (response.abort) signal.addEventListener('abort', response.abort, { once: true });
    return reply.code(response.status).headers(response.headers).send(response.body);
  }

  app.get('/*', async (request, reply) => {
    const url = requestUrl(request.url);
    if (!url) return badTarget(reply);
    const input = renderRequest(request, reply, url);
    const response =
      request.headers[HEADERS.payload] === '1'
        ? await renderPayload(runtime, input)
        : await renderDocument(runtime, input);
    return send(reply, response, input.signal);
  });

  app.post('/*', { bodyLimit: options.actionBodyLimit }, async (request, reply) => {
    const url = requestUrl(request.url);
    if (!url) return badTarget(reply);
    const input = renderRequest(request, reply, url);
    const headerId = request.headers[HEADERS.action];
    const body = request.body as Record<string, unknown> | undefined;
    const formId =
      typeof body?.[FORM_ACTION_FIELD] === 'string'
        ? (body[FORM_ACTION_FIELD] as string)
        : undefined;
    const actionId = typeof headerId === 'string' ? headerId : formId;
    if (actionId === undefined)
      return reply
        .code(405)
        .header('allow', 'GET')
        .send({
          error: {
            code: 'METHOD_NOT_ALLOWED',
            message: 'POST is only for server actions (Strata-Action header or $action field).',
          },
        });
    const viaFetch = typeof headerId === 'string';
    const tree = parseTreeHeader(String(request.headers[HEADERS.tree] ?? encodeTreeHeader([])));
    const own = effectiveOrigin(
      {
        headers: request.headers,
        remoteAddress: request.socket.remoteAddress ?? '',
        encrypted: 'encrypted' in request.socket,
      },
      options.trustedProxies,
    );
    const allowedOrigins =
      options.publicOrigins.length > 0 ? options.publicOrigins : own ? [own] : [];
    const fields = viaFetch ? body : omit(body, FORM_ACTION_FIELD);
    const response = await handleAction(
      runtime,
      options.actions,
      {
        ...input,
        actionId,
        input: fields,
        viaFetch,
        origin: firstHeader(request.headers.origin),
        allowedOrigins,
        treeKeys: tree.ok ? tree.keys : [],
      },
      {
        ...(options.revalidate && { revalidate: options.revalidate }),
        renderWithFormResult: (formResult) =>
          renderDocument(runtime, input, { formResult, status: 422 }),
      },
    );
    return send(reply, response, input.signal);
  });
}

function badTarget(reply: FastifyReply): FastifyReply {
  return reply
    .code(400)
    .send({ error: { code: 'BAD_REQUEST', message: 'The request target is not a path.' } });
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function omit(body: Record<string, unknown> | undefined, field: string): Record<string, unknown> {
  const rest = { ...body };
  delete rest[field];
  return rest;
}
