/**
 * The browser SDK, set up from the boot record's public settings: envelopes go to the
 * same-origin tunnel (the relay), limits follow the specification, noise and unfinished
 * navigations are dropped before they cost bandwidth, and trace headers go to same-origin
 * requests only (the SDK's behaviour without `tracePropagationTargets`). An envelope whose send
 * fails on the network (offline, or the connection dropped when the network changed) is kept in
 * IndexedDB and sent again later, or by the next page, instead of being lost.
 */
import {
  browserTracingIntegration,
  captureException,
  getActiveSpan,
  getClient,
  getCurrentScope,
  init,
  makeBrowserOfflineTransport,
  makeFetchTransport,
  startBrowserTracingPageLoadSpan,
  withScope,
} from '@sentry/browser';
import type { TelemetryBoot } from '../../protocol/telemetry-boot.js';
import type { ErrorReporter } from '../../render/error-reporting.js';
import type { RouteTable } from '../../routes/route-table.js';
import { createNavigationTracing, type TimedNavigationObserver } from './navigation-tracing.js';
import { isRedirectControlFlow, NOISE_MESSAGES } from './noise.js';
import { unsentReason } from './unsent-transactions.js';

/** An error the server reported with a digest, as the browser reports it. */
export class ServerError extends Error {
  readonly digest: string;

  constructor(message: string, digest: string) {
    super(message);
    this.name = 'ServerError';
    this.digest = digest;
  }
}

/** What the runtime uses once the SDK runs. */
export interface BrowserTelemetry extends ErrorReporter {
  readonly navigation: TimedNavigationObserver | undefined;
  /** Reports what the page's global handlers saw before the SDK was loaded: an Error, or the
   * bare message of a cross-origin script's error. */
  uncaught(error: unknown): void;
}

/** The document the page load delivered: its route pattern and URL. */
export interface LoadedPage {
  readonly route: string;
  readonly url: string;
}

/** What the offline transport accepts (the SDK does not export the type by name). */
type OfflineTransportSettings = Partial<
  Parameters<ReturnType<typeof makeBrowserOfflineTransport>>[0]
>;

/**
 * The fetch transport's settings and the offline queue's. A variable, not a literal in `init`:
 * the SDK types `transportOptions` as the fetch transport's alone.
 */
const TRANSPORT_OPTIONS = {
  bufferSize: 64,
  dbName: 'strata-telemetry',
  // Queued on a page that closed before the network came back: sent by the next page.
  flushAtStartup: true,
} satisfies OfflineTransportSettings;

/** Starts the SDK and the page-load transaction (named by the page's route pattern). */
export function startBrowserTelemetry(
  boot: TelemetryBoot,
  table: RouteTable<never>,
  page: LoadedPage,
): BrowserTelemetry {
  init({
    dsn: boot.dsn,
    tunnel: boot.tunnel,
    environment: boot.environment,
    ...(boot.release && { release: boot.release }),
    tracesSampleRate: boot.tracesSampleRate,
    // Whole transactions: an unfinished navigation can only be dropped once it has ended.
    traceLifecycle: 'static',
    // W3C Trace Context beside Sentry's headers, so OpenTelemetry proxies and backends join.
    propagateTraceparent: true,
    maxBreadcrumbs: 100,
    maxValueLength: 250,
    transport: makeBrowserOfflineTransport(makeFetchTransport),
    transportOptions: TRANSPORT_OPTIONS,
    ignoreErrors: [...NOISE_MESSAGES],
    beforeSend: (event) => (isRedirectControlFlow(event) ? null : event),
    // oxlint-disable-next-line typescript/no-deprecated -- the static lifecycle's send hook
    beforeSendTransaction: (event) => (unsentReason(event) ? null : event),
    integrations: [
      browserTracingIntegration({ instrumentNavigation: false, instrumentPageLoad: false }),
    ],
  });
  const client = getClient();
  if (client)
    startBrowserTracingPageLoadSpan(
      client,
      {
        name: page.route,
        // The page load began with the navigation to this document, not when the SDK arrived,
        // and was for the document's URL, not wherever an early navigation has gone since.
        startTime: performance.timeOrigin / 1000,
        attributes: {
          'sentry.source': 'route',
          'url.full': page.url,
          'url.path': new URL(page.url).pathname,
        },
      },
      boot.trace && { sentryTrace: boot.trace.sentryTrace, baggage: boot.trace.baggage },
    );
  const reported = new WeakSet<object>();
  const once = (key: object) => !reported.has(key) && !!reported.add(key);
  return {
    navigation: client && createNavigationTracing(client, table),
    serverError(outcome, { digest, message, traceId = currentTraceId() }) {
      if (!once(outcome)) return;
      withScope((scope) => {
        // The trace of the request that failed: the page load or navigation continued it.
        scope.setTags({ digest, trace_id: traceId, 'error.side': 'server' });
        scope.setFingerprint(['server-error', digest]);
        captureException(new ServerError(message, digest));
      });
    },
    uncaught(error) {
      captureException(error, { mechanism: { type: 'onerror', handled: false } });
    },
    clientError(error) {
      if (typeof error === 'object' && error !== null && !once(error)) return;
      withScope((scope) => {
        scope.setTag('error.side', 'client');
        captureException(error);
      });
    },
  };
}

function currentTraceId(): string {
  return (
    getActiveSpan()?.spanContext().traceId ?? getCurrentScope().getPropagationContext().traceId
  );
}
