/**
 * POST of a server action to a page URL. Checks, in order: a well-formed id (400), a known id
 * (404 with Strata-Action-Not-Found), the Origin (403), the input schema; then runs the action.
 * Fetch callers get a payload stream (action record, refreshed segments, any redirect); forms
 * posted without JavaScript get a 303, or the page again with the errors (422).
 */
import { HEADERS, PAYLOAD_CONTENT_TYPE } from '../../protocol/constants.js';
import { encodeRecord } from '../../protocol/payload-records.js';
import { errorDigest } from '../error-digest.js';
import { payloadFor } from '../render-payload.js';
import { sameSiteLocation, sameSitePath } from '../same-site-location.js';
import type { RenderRequest, RenderResponse, WebRuntime } from '../web-runtime.js';
import { isWellFormedActionId, type ActionRegistry } from './action-registry.js';
import { checkOrigin } from './origin-check.js';

/** A parsed action request. */
export interface ActionRequest<Services> extends RenderRequest<Services> {
  readonly actionId: string;
  /** Parsed JSON body, or form fields. */
  readonly input: unknown;
  /** true: called by the browser runtime; false: a plain HTML form post. */
  readonly viaFetch: boolean;
  readonly origin: string | undefined;
  readonly allowedOrigins: readonly string[];
  /** The browser's current tree (fetch calls), to refresh the page's segments. */
  readonly treeKeys: readonly string[];
}

/** Hooks the action handler needs from the application. */
export interface ActionHooks {
  /** Invalidates cached data by tag (segment cache); awaited before refreshing segments. */
  readonly revalidate?: (tags: readonly string[]) => Promise<void>;
  /** Renders the page again with a failed form result (no-JS validation errors). */
  readonly renderWithFormResult: (result: {
    action: string;
    fieldErrors: Record<string, readonly string[]>;
    values: Record<string, string>;
  }) => Promise<RenderResponse>;
}

function json(
  status: number,
  code: string,
  message: string,
  buildId: string,
  extra: Record<string, string> = {},
): RenderResponse {
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      [HEADERS.build]: buildId,
      ...extra,
    },
    body: JSON.stringify({ error: { code, message } }),
  };
}

/** Handles one action request. */
export async function handleAction<Services>(
  runtime: WebRuntime<Services>,
  registry: ActionRegistry<Services>,
  request: ActionRequest<Services>,
  hooks: ActionHooks,
): Promise<RenderResponse> {
  const build = runtime.buildId;
  if (!isWellFormedActionId(request.actionId))
    return json(400, 'ACTION_MALFORMED', 'Strata-Action must be a 32-character action id.', build);
  const action = registry.byId(request.actionId);
  if (!action)
    return json(
      404,
      'ACTION_NOT_FOUND',
      'This action does not exist on the server; the page may be from another version. Reload it.',
      build,
      { [HEADERS.actionNotFound]: '1' },
    );
  const refused = checkOrigin(request.origin, request.allowedOrigins);
  if (refused) {
    runtime.logger.warn(
      { traceId: request.traceId, origin: request.origin, reason: refused },
      'action refused by the origin check',
    );
    return json(403, 'ACTION_ORIGIN_REJECTED', `Cross-site action refused: ${refused}.`, build);
  }

  const parsed = action.input.safeParse(request.input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path.map(String).join('.') || '_form';
      (fieldErrors[field] ??= []).push(issue.message);
    }
    return settle(runtime, request, hooks, { ok: false, fieldErrors }, [], undefined);
  }

  const revalidated = new Set<string>();
  let redirectTo: string | undefined;
  try {
    const outcome = await action.handler(parsed.data, {
      services: request.services,
      revalidate: (...tags) => tags.forEach((tag) => revalidated.add(tag)),
      redirect: (location) => {
        redirectTo = sameSiteLocation(location);
      },
    });
    if (revalidated.size > 0) await hooks.revalidate?.([...revalidated]);
    return settle(
      runtime,
      request,
      hooks,
      outcome.ok ? { ok: true, result: outcome.result } : outcome,
      [...revalidated],
      redirectTo,
    );
  } catch (error) {
    const digest = errorDigest(error);
    const url = request.url.pathname + request.url.search;
    runtime.logger.error(
      {
        err: error,
        digest,
        traceId: request.traceId,
        action: `${action.module}#${action.name}`,
        url,
      },
      'action failed',
    );
    runtime.onServerError?.(error, { digest, traceId: request.traceId, url });
    return json(
      500,
      'ACTION_FAILED',
      `The action failed on the server (digest ${digest}).`,
      build,
      { 'strata-digest': digest },
    );
  }
}

type Settled =
  | { ok: true; result: unknown }
  | { ok: false; fieldErrors: Readonly<Record<string, readonly string[]>> };

async function settle<Services>(
  runtime: WebRuntime<Services>,
  request: ActionRequest<Services>,
  hooks: ActionHooks,
  outcome: Settled,
  revalidated: string[],
  redirectTo: string | undefined,
): Promise<RenderResponse> {
  if (!request.viaFetch) {
    if (!outcome.ok)
      return hooks.renderWithFormResult({
        action: request.actionId,
        fieldErrors: { ...outcome.fieldErrors },
        values: formValues(request.input),
      });
    // Post/redirect/get: the browser lands on a GET, so a reload never repeats the action.
    const location = redirectTo ?? sameSitePath(request.url);
    return {
      status: 303,
      headers: { location, 'cache-control': 'no-store', [HEADERS.build]: runtime.buildId },
      body: '',
    };
  }
  const actionRecord = encodeRecord({
    type: 'action',
    ok: outcome.ok,
    ...(outcome.ok ? { result: outcome.result } : { fieldErrors: outcome.fieldErrors }),
    revalidated,
  });
  if (redirectTo)
    return recordsOnly(runtime.buildId, [
      actionRecord,
      encodeRecord({ type: 'redirect', location: redirectTo, status: 303 }),
    ]);
  if (!outcome.ok) return recordsOnly(runtime.buildId, [actionRecord]);
  // Refresh every segment of the current page: cached ones come back cheaply, stale ones fresh.
  const response = await payloadFor(runtime, request, {
    keys: [],
    prelude: [actionRecord],
    status: 200,
  });
  return { ...response, headers: { ...response.headers, 'cache-control': 'no-store' } };
}

/** An action answer with no page segments: the given records, then `end`. */
function recordsOnly(buildId: string, records: readonly string[]): RenderResponse {
  return {
    status: 200,
    headers: {
      'content-type': PAYLOAD_CONTENT_TYPE,
      'cache-control': 'no-store',
      [HEADERS.build]: buildId,
    },
    body: records.join('') + encodeRecord({ type: 'end' }),
  };
}

function formValues(input: unknown): Record<string, string> {
  if (typeof input !== 'object' || input === null) return {};
  return Object.fromEntries(
    Object.entries(input).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}
