/**
 * Settings and services the server renderers share; built once by the application's
 * composition root.
 */
import type { BrowserTelemetrySettings, DocumentTrace } from '../protocol/telemetry-boot.js';
import type { ActionIds } from '../render/action-ids.js';
import type { RouteTable } from '../routes/route-table.js';
import type { ResolvedRoute } from './resolve-route.js';
import type { SegmentCache } from './segment-cache.js';

/** Where renderers report failures (a pino logger fits). */
export interface RuntimeLogger {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** One server error, with what links its reports together. */
export interface ServerErrorContext {
  readonly digest: string;
  readonly traceId: string;
  readonly segmentId?: string;
  readonly url: string;
}

/** Error and trace reporting, supplied by the application (Sentry in the render service). */
export interface RuntimeTelemetry {
  /** Public settings for the browser SDK, rendered into every document. */
  readonly browser: BrowserTelemetrySettings;
  /** The trace the current request belongs to (undefined: none is being recorded). */
  currentTrace(): DocumentTrace | undefined;
  /** Names the current request's transaction after its route, e.g. `GET /items/:id`. */
  nameTransaction(name: string): void;
}

/** The renderers' configuration. */
export interface WebRuntime<Services> {
  readonly table: RouteTable<Services>;
  /** Identifies this build; clients on another build reload. */
  readonly buildId: string;
  /** Module scripts that hydrate the page (hashed asset URLs). */
  readonly clientScripts: readonly string[];
  /** Public ids of each segment's actions, for its forms (`useActionId`; absent: none). */
  readonly actionIds?: ActionIds;
  /** Abort a streaming render (pending boundaries are left to the browser) after this long. */
  readonly renderTimeoutMs: number;
  readonly logger: RuntimeLogger;
  /** Shared cache of segment results (absent: every loader runs on every request). */
  readonly segmentCache?: SegmentCache;
  /** Called once per unexpected server error (telemetry hooks in here). */
  readonly onServerError?: (error: unknown, context: ServerErrorContext) => void;
  /** Traces requests and configures the browser SDK (absent: no telemetry). */
  readonly telemetry?: RuntimeTelemetry;
}

/** The per-request input to a renderer. */
export interface RenderRequest<Services> {
  readonly url: URL;
  /** What `url` resolves to, when the caller has resolved it already (absent: the renderer does). */
  readonly route?: ResolvedRoute<Services>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly cookies: Readonly<Record<string, string>>;
  readonly services: Services;
  readonly signal: AbortSignal;
  readonly traceId: string;
  /** This response's Content-Security-Policy script nonce: every script of the document gets it. */
  readonly nonce?: string;
}

/** What a renderer answers; the HTTP adapter sends it. */
export interface RenderResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** A Buffer is a whole answer (sent with its Content-Length); a stream is sent chunked. */
  readonly body: string | Buffer | NodeJS.ReadableStream;
  /** Stops rendering (the client went away). */
  readonly abort?: () => void;
}
