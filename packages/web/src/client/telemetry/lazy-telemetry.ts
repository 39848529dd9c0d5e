/**
 * Telemetry without the SDK in the main bundle: the Sentry SDK (about 55 KB gzipped) is a
 * separate chunk loaded after hydration starts. Until it arrives, this facade records what
 * happened (navigation events with their times, reported errors, uncaught errors) and replays
 * it in order, so nothing that happens early is lost and the page never waits for telemetry.
 */
import type { TelemetryBoot } from '../../protocol/telemetry-boot.js';
import type { ErrorReporter } from '../../render/error-reporting.js';
import type { RouteTable } from '../../routes/route-table.js';
import type { NavigationObserver } from '../router/navigation-observer.js';
import type { BrowserTelemetry, LoadedPage } from './browser-telemetry.js';
import { earlyTraceHeaders, randomSpanId, type TraceHeaders } from './early-trace.js';

/** What the runtime holds: reporter and navigation observer, usable at once. */
export interface LazyTelemetry extends ErrorReporter {
  readonly navigation: NavigationObserver;
  /** Resolves once the SDK runs (false if its chunk could not be loaded). */
  readonly ready: Promise<boolean>;
  /** Trace headers a same-origin request needs added now: the document's trace until the SDK
   * runs (and on, if it cannot be loaded), none once the SDK adds its own. */
  traceHeaders(): TraceHeaders | undefined;
}

type Call = (telemetry: BrowserTelemetry) => void;

/** The SDK module's entry point, injectable for tests. */
export type LoadSdk = () => Promise<{
  startBrowserTelemetry(
    boot: TelemetryBoot,
    table: RouteTable<never>,
    page: LoadedPage,
  ): BrowserTelemetry;
}>;

/** Starts loading the SDK and returns the facade. */
export function startLazyTelemetry(
  boot: TelemetryBoot,
  table: RouteTable<never>,
  pageRoute: string,
  inject: {
    load?: LoadSdk;
    globalEvents?: EventTarget;
    now?: () => number;
    url?: string;
    fillRandom?: (bytes: Uint8Array<ArrayBuffer>) => void;
  } = {},
): LazyTelemetry {
  // The document's URL now: by the time the SDK arrives an early navigation may have changed it.
  const page: LoadedPage = { route: pageRoute, url: inject.url ?? location.href };
  const load = inject.load ?? (() => import('./browser-telemetry.js'));
  const events = inject.globalEvents ?? window;
  const now = inject.now ?? Date.now;
  let sdk: BrowserTelemetry | undefined;
  const fillRandom = inject.fillRandom ?? ((bytes) => void crypto.getRandomValues(bytes));
  const early = boot.trace && earlyTraceHeaders(boot.trace, randomSpanId(fillRandom));
  let queue: Call[] | undefined = [];
  const call = (work: Call) => (sdk ? work(sdk) : queue?.push(work));

  // Errors nothing caught before the SDK's own handlers exist. A cross-origin script's error
  // carries only its message ("Script error."): replayed as that text, so the SDK's noise
  // filter drops and counts it exactly as it would have had the SDK been there.
  const onError = (event: Event) => {
    const { error, message } = event as ErrorEvent;
    if (error instanceof Error) call((t) => t.uncaught(error));
    else if (typeof message === 'string' && message !== '') call((t) => t.uncaught(message));
  };
  const onRejection = (event: Event) => {
    const reason = (event as PromiseRejectionEvent).reason as unknown;
    if (reason instanceof Error) call((t) => t.uncaught(reason));
  };
  events.addEventListener('error', onError);
  events.addEventListener('unhandledrejection', onRejection);
  const stopListening = () => {
    events.removeEventListener('error', onError);
    events.removeEventListener('unhandledrejection', onRejection);
  };

  const ready = load().then(
    (module) => {
      stopListening();
      sdk = module.startBrowserTelemetry(boot, table, page);
      const pending = queue ?? [];
      queue = undefined;
      for (const work of pending) work(sdk);
      return true;
    },
    (error: unknown) => {
      // Blocked or offline: the page works on, only without telemetry.
      console.warn('Telemetry is off: its script could not be loaded.', error);
      stopListening();
      queue = undefined;
      return false;
    },
  );

  return {
    ready,
    traceHeaders: () => (sdk ? undefined : early),
    serverError: (outcome, details) => call((t) => t.serverError(outcome, details)),
    clientError: (error) => call((t) => t.clientError(error)),
    navigation: {
      started(navigation) {
        const at = now();
        call((t) => t.navigation?.started({ ...navigation, at }));
      },
      ended(navigation) {
        const at = now();
        call((t) => t.navigation?.ended({ ...navigation, at }));
      },
    },
  };
}
