/**
 * GET of a page as a document: runs the loaders, waits for the ones above the first loading
 * boundary (so redirects and 404s get real status codes), then streams React's HTML: the shell
 * as soon as it is ready, deferred parts as they resolve. A page with no loading view and no
 * deferred values has nothing left to wait for at that point: it is rendered in one pass and
 * sent whole (one-pass-document.tsx).
 */
import { PassThrough } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { BOOT_GLOBAL, HEADERS, PAYLOAD_VARY } from '../protocol/constants.js';
import { jsonForScript } from '../protocol/safe-json.js';
import { ActionIdsContext } from '../render/action-ids.js';
import { FormResultContext, type FormResult } from '../render/form-result.js';
import { ScriptNonceContext } from '../render/script-nonce.js';
import { SegmentTree } from '../render/segment-tree.js';
import { errorDigest as digestOf } from './error-digest.js';
import { documentTelemetry } from './document-telemetry.js';
import { renderErrorScreen } from './error-screen.js';
import { loadPage, routeOf } from './load-page.js';
import { renderOnePass } from './one-pass-document.js';
import { firstLoadingIndex } from './resolve-route.js';
import type { LoadedSegment } from './run-loader.js';
import type { RenderRequest, RenderResponse, WebRuntime } from './web-runtime.js';

export { BOOT_GLOBAL };

/** Renders a document for `request`. */
export async function renderDocument<Services>(
  runtime: WebRuntime<Services>,
  request: RenderRequest<Services>,
  options: { formResult?: FormResult; status?: number } = {},
): Promise<RenderResponse> {
  const route = routeOf(runtime, request);
  const url = request.url.pathname + request.url.search;
  const load = loadPage(runtime, request, {
    route,
    search: request.url.searchParams,
    from: 0,
    until: route.segments.length,
    prefetch: false,
  });

  const blockingIds = route.segments.slice(0, firstLoadingIndex(route.segments)).map((s) => s.id);
  const blocking = await Promise.all(
    blockingIds.map((id) => load.loaded.get(id) as Promise<LoadedSegment>),
  );
  const baseHeaders = { [HEADERS.build]: runtime.buildId, vary: PAYLOAD_VARY };

  const redirect = blocking.find((s) => s.outcome.status === 'redirect')?.outcome;
  if (redirect?.status === 'redirect')
    return {
      status: redirect.httpStatus,
      headers: { ...baseHeaders, location: redirect.location, 'cache-control': 'no-store' },
      body: '',
    };

  const failed = blocking.find((s) => s.outcome.status === 'error');
  if (failed?.outcome.status === 'error' && !hasErrorView(route.segments, failed.id))
    return errorScreen(runtime, failed.outcome.digest, request, baseHeaders);

  const status =
    options.status ??
    (blocking.some((s) => s.outcome.status === 'not-found') || !route.matched
      ? 404
      : failed
        ? 500
        : 200);
  const telemetry = documentTelemetry(runtime as WebRuntime<never>);
  const boot = {
    build: runtime.buildId,
    route: route.routeId,
    pattern: route.pattern,
    params: route.params,
    segments: route.segments.map((s) => s.id),
    form: options.formResult ?? null,
    actions: runtime.actionIds ?? {},
    ...(telemetry && { telemetry }),
  };

  const nonce = request.nonce;
  const scripts = {
    bootstrapScriptContent: `self.${BOOT_GLOBAL}=${jsonForScript(boot)}`,
    bootstrapModules: [...runtime.clientScripts],
    ...(nonce && { nonce }),
  };
  const tree = (settled: readonly LoadedSegment[]) => (
    <ScriptNonceContext value={nonce}>
      <ActionIdsContext value={runtime.actionIds ?? {}}>
        <FormResultContext value={options.formResult ?? null}>
          <SegmentTree
            segments={route.segments as never}
            params={route.params}
            source={load.source(true, settled)}
          />
        </FormResultContext>
      </ActionIdsContext>
    </ScriptNonceContext>
  );

  const everythingSettled =
    blocking.length === route.segments.length && blocking.every((s) => s.deferred.size === 0);
  const whole = everythingSettled ? renderOnePass(tree(blocking), scripts) : undefined;
  if (whole !== undefined)
    return {
      status,
      headers: {
        ...baseHeaders,
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'private, no-cache',
      },
      body: whole,
    };

  return new Promise<RenderResponse>((resolve) => {
    let shellSent = false;
    const body = new PassThrough();
    const stream = renderToPipeableStream(tree(blocking), {
      ...scripts,
      onShellReady() {
        shellSent = true;
        stream.pipe(body);
        resolve({
          status,
          headers: {
            ...baseHeaders,
            'content-type': 'text/html; charset=utf-8',
            'cache-control': 'private, no-cache',
            // Proxies such as nginx must pass each chunk on as it comes, or nothing streams.
            'x-accel-buffering': 'no',
          },
          body,
          abort: () => stream.abort(new Error('client disconnected')),
        });
      },
      onShellError(error) {
        const digest = reportRenderError(runtime, request, error, url);
        if (!shellSent) resolve(errorScreen(runtime, digest, request, baseHeaders));
      },
      onError(error) {
        if (isAbort(error)) return undefined;
        return reportRenderError(runtime, request, error, url);
      },
    });
    const timer = setTimeout(
      () => stream.abort(new Error('render timed out')),
      runtime.renderTimeoutMs,
    );
    timer.unref();
    body.on('close', () => clearTimeout(timer));
    request.signal.addEventListener('abort', () => stream.abort(new Error('client disconnected')), {
      once: true,
    });
  });
}

function hasErrorView(
  segments: readonly { id: string; error?: unknown }[],
  failedId: string,
): boolean {
  const index = segments.findIndex((s) => s.id === failedId);
  return segments.slice(0, index + 1).some((s) => s.error !== undefined);
}

function errorScreen<S>(
  runtime: WebRuntime<S>,
  digest: string,
  { traceId, nonce }: RenderRequest<S>,
  headers: Record<string, string>,
): RenderResponse {
  // With telemetry the screen loads the client bundle, which reports this error from the
  // browser too (same digest and trace) without hydrating anything.
  const telemetry = documentTelemetry(runtime as WebRuntime<never>);
  const client = telemetry && {
    boot: { build: runtime.buildId, error: { digest, traceId }, telemetry },
    scripts: runtime.clientScripts,
  };
  return {
    status: 500,
    headers: {
      ...headers,
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
    },
    body: renderErrorScreen({
      digest,
      reference: traceId,
      buildId: runtime.buildId,
      ...(client && { client }),
      ...(nonce && { nonce }),
    }),
  };
}

const reported = new WeakSet<object>();

function reportRenderError<S>(
  runtime: WebRuntime<S>,
  request: RenderRequest<S>,
  error: unknown,
  url: string,
): string {
  // Loader failures arrive here again when a segment rethrows; they were reported with their digest.
  const own = (error as { digest?: unknown } | null)?.digest;
  if (typeof own === 'string') return own;
  const digest = digestOf(error);
  if (typeof error === 'object' && error !== null) {
    if (reported.has(error)) return digest;
    reported.add(error);
  }
  runtime.logger.error({ err: error, digest, traceId: request.traceId, url }, 'render failed');
  runtime.onServerError?.(error, { digest, traceId: request.traceId, url });
  return digest;
}

function isAbort(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.message === 'client disconnected' || error.name === 'AbortError')
  );
}
