/**
 * Calls a server action from the browser: POSTs the input with `Strata-Action` and the current
 * tree, then applies the answer — the refreshed segments of this page, or a navigation for a
 * redirect — and drops only the cached pages carrying the tags the action revalidated. A redirect
 * after a revalidation loads every segment of its page: a layout kept from this page may show
 * what changed.
 */
import { HEADERS, PAYLOAD_CONTENT_TYPE } from '../../protocol/constants.js';
import type { RouteRecord } from '../../protocol/payload-records.js';
import { readPayload, type LivePayload } from './live-payload.js';

/** What the caller gets back. */
export type ActionOutcome =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly fieldErrors: Readonly<Record<string, readonly string[]>> };

/** What the action call needs from the router. */
export interface ActionDeps {
  readonly fetch: typeof fetch;
  readonly url: () => string;
  readonly tree: () => string;
  readonly apply: (route: RouteRecord, payload: LivePayload) => void;
  /** `everySegment`: keep none of the page on screen (the action changed data it may show). */
  readonly navigate: (location: string, everySegment: boolean) => void;
  readonly invalidate: (tags: readonly string[]) => void;
  readonly reload: () => void;
}

/** Sends the action and applies its answer. */
export async function submitAction(
  deps: ActionDeps,
  actionId: string,
  input: unknown,
): Promise<ActionOutcome> {
  const response = await deps.fetch(deps.url(), {
    method: 'POST',
    credentials: 'same-origin',
    headers: {
      'content-type': 'application/json',
      [HEADERS.action]: actionId,
      [HEADERS.tree]: deps.tree(),
    },
    body: JSON.stringify(input),
  });
  if (response.status === 404 && response.headers.get(HEADERS.actionNotFound) === '1') {
    // The server no longer knows this action: the page is from another build.
    deps.reload();
    return { ok: false, fieldErrors: { _form: ['This page is out of date; reloading.'] } };
  }
  const type = response.headers.get('content-type') ?? '';
  if (
    !response.ok ||
    !type.startsWith(PAYLOAD_CONTENT_TYPE.split(';')[0] ?? '') ||
    !response.body
  ) {
    const problem = (await response.json().catch(() => null)) as {
      error?: { message?: string };
    } | null;
    return {
      ok: false,
      fieldErrors: {
        _form: [problem?.error?.message ?? `The action failed (${response.status}).`],
      },
    };
  }
  const live = readPayload(response.body);
  await live.complete.catch(() => undefined);
  const record = live.action();
  if (!record) return { ok: false, fieldErrors: { _form: ['The server sent no action result.'] } };
  if (record.revalidated.length > 0) deps.invalidate(record.revalidated);
  const redirect = live.redirect();
  // The redirect's page may share layouts with this one that show what the action changed.
  if (record.ok && redirect) deps.navigate(redirect.location, record.revalidated.length > 0);
  else if (record.ok) {
    const route = await live.route.catch(() => undefined);
    if (route) deps.apply(route, live);
  }
  return record.ok
    ? { ok: true, result: record.result }
    : { ok: false, fieldErrors: record.fieldErrors ?? {} };
}
