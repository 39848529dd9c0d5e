/**
 * Hydrates a server-rendered page and starts the router: reads the boot record and the
 * inlined segment data, starts telemetry when the server configured it, and hands the page to
 * the router, which renders it from then on. On the server's error screen it only reports.
 */
import { hydrateRoot } from 'react-dom/client';
import type { TelemetryBoot } from '../protocol/telemetry-boot.js';
import { ActionIdsContext, type ActionIds } from '../render/action-ids.js';
import { ErrorReporterContext } from '../render/error-reporting.js';
import { SERVER_ERROR_TEXT } from '../render/error-texts.js';
import { FormResultContext, type FormResult } from '../render/form-result.js';
import { ScriptNonceContext } from '../render/script-nonce.js';
import type { RouteTable } from '../routes/route-table.js';
import { createInlineSource } from './inline-source.js';
import { createRouter, type Router } from './router/create-router.js';
import { pageFromSource, segmentById } from './router/page.js';
import type { RouterConstants } from './router/router-constants.js';
import { RouterProvider } from './react/router-provider.js';
import { fetchWithTraceHeaders } from './telemetry/early-trace.js';
import { startLazyTelemetry, type LazyTelemetry } from './telemetry/lazy-telemetry.js';
import { routeNameOf } from './telemetry/route-name.js';

/** What the server's first script sets. */
export interface BootRecord {
  readonly build: string;
  readonly route: string;
  readonly pattern: string;
  readonly params: Readonly<Record<string, string>>;
  readonly segments: readonly string[];
  readonly form: FormResult | null;
  /** Public ids of each segment's actions (`useActionId`). */
  readonly actions?: ActionIds;
  readonly telemetry?: TelemetryBoot;
}

/** What the server's error screen sets instead (only when telemetry is configured). */
export interface ErrorScreenBoot {
  readonly build: string;
  readonly error: { readonly digest: string; readonly traceId: string };
  readonly telemetry: TelemetryBoot;
}

declare global {
  interface Window {
    __strata_boot?: BootRecord | ErrorScreenBoot;
    __strata?: unknown[];
    __strata_router?: Router;
    /** The telemetry facade (tests and debugging wait on its `ready`). */
    __strata_telemetry?: LazyTelemetry;
  }
}

/** Hydrates the document and returns the router (undefined on the server's error screen). */
export function hydrateApp<Services>(
  table: RouteTable<Services>,
  options: { constants?: Partial<RouterConstants>; onError?: (error: unknown) => void } = {},
): Router | undefined {
  const boot = window.__strata_boot;
  if (!boot) throw new Error('No boot record: this page was not rendered by Strata.');
  const routes = table as RouteTable<never>;
  if ('error' in boot) {
    const { digest, traceId } = boot.error;
    startLazyTelemetry(boot.telemetry, routes, routeNameOf(routes, location.href)).serverError(
      boot.error,
      { digest, traceId, message: SERVER_ERROR_TEXT },
    );
    return undefined;
  }
  const telemetry = boot.telemetry && startLazyTelemetry(boot.telemetry, routes, boot.pattern);
  if (telemetry) window.__strata_telemetry = telemetry;
  const onError = (error: unknown) => {
    telemetry?.clientError(error);
    options.onError?.(error);
  };
  const queue = (window.__strata ??= []) as Parameters<typeof createInlineSource>[0];
  const segments = boot.segments.map((id) => segmentById(table, id)).filter((s) => s !== undefined);
  const url = location.pathname + location.search + location.hash;
  const page = pageFromSource(
    { url, routeId: boot.route, root: boot.segments[0] ?? '', params: boot.params, segments },
    createInlineSource(queue),
  );
  // Looked up per call: once the SDK runs, its instrumented fetch adds the trace headers.
  const pageFetch: typeof fetch = (input, init) => fetch(input, init);
  const connection = (
    navigator as Navigator & { connection?: { saveData?: boolean; effectiveType?: string } }
  ).connection;
  const router = createRouter({
    table,
    initial: page,
    build: boot.build,
    ...(options.constants && { constants: options.constants }),
    ...(telemetry && { observer: telemetry.navigation }),
    environment: {
      fetch: telemetry ? fetchWithTraceHeaders(pageFetch, telemetry.traceHeaders) : pageFetch,
      now: () => Date.now(),
      location: {
        get href() {
          return location.href;
        },
        assign: (to) => location.assign(to),
        replace: (to) => location.replace(to),
      },
      history: window.history,
      // Scroll once React has rendered the page (its update is flushed before the next frame).
      scroll: (target) =>
        requestAnimationFrame(() =>
          'hash' in target
            ? document.getElementById(decodeURIComponent(target.hash.slice(1)))?.scrollIntoView()
            : window.scrollTo(0, target.top),
        ),
      scrollY: () => window.scrollY,
      connection: () => ({
        saveData: connection?.saveData,
        effectiveType: connection?.effectiveType,
        userAgent: navigator.userAgent,
      }),
      onPopState: (listener) =>
        window.addEventListener('popstate', (event) => listener(event.state)),
    },
  });
  window.__strata_router = router;
  hydrateRoot(
    document,
    <ErrorReporterContext value={telemetry ?? null}>
      <ActionIdsContext value={boot.actions ?? {}}>
        <FormResultContext value={boot.form}>
          <ScriptNonceContext value={documentNonce()}>
            <RouterProvider router={router} onError={onError} />
          </ScriptNonceContext>
        </FormResultContext>
      </ActionIdsContext>
    </ErrorReporterContext>,
  );
  return router;
}

/**
 * The nonce the server put on this document's scripts, so the inline scripts hydrate with the
 * markup they were sent with. Browsers hide it from the attribute; the property still has it.
 */
function documentNonce(): string | undefined {
  return document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce || undefined;
}
