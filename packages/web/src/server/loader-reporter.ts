/**
 * How renderers report a loader failure: logged with its digest, trace id, segment and URL,
 * and handed to the runtime's error hook (telemetry).
 */
import type { LoaderErrorReporter } from './run-loader.js';
import type { RenderRequest, WebRuntime } from './web-runtime.js';

/** The reporter for one request. */
export function loaderReporter<S>(
  runtime: WebRuntime<S>,
  request: RenderRequest<S>,
): LoaderErrorReporter {
  const url = request.url.pathname + request.url.search;
  return (error, digest, segmentId) => {
    runtime.logger.error(
      { err: error, digest, traceId: request.traceId, segment: segmentId, url },
      'loader failed',
    );
    runtime.onServerError?.(error, { digest, traceId: request.traceId, segmentId, url });
  };
}
