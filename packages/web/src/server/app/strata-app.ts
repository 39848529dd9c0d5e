/**
 * The contract between an application and the render service that serves it. An application
 * is a package whose default export is a `StrataApp`: its routes, actions and the services its
 * loaders and actions use. The render service owns HTTP, caching, telemetry and the client
 * bundle; the application never sees a socket or a cache key. See docs/guide.md.
 */
import type { Registry } from 'prom-client';
import type { RouteTable } from '../../routes/route-table.js';
import type { ActionDefinition } from '../actions/define-action.js';
import type { RuntimeLogger } from '../web-runtime.js';

/** One application, as the render service loads it by configuration (`RENDER_APP`). */
export interface StrataApp<Services> {
  /** Names the app in logs; `[a-z0-9-]+`. (Its client bundle is found by package name.) */
  readonly name: string;
  /**
   * Server actions, each naming the segment it belongs to (whose components read its public id
   * with `useActionId`); the ids derive from the service's ACTION_SALT.
   */
  // oxlint-disable-next-line typescript/no-explicit-any -- each action has its own schema and result
  readonly actions?: readonly ActionDefinition<Services, any, any>[];
  /** Reads its own settings from `host.env`, opens its connections, and is ready to serve. */
  start(host: AppHost): Promise<RunningApp<Services>>;
}

/** What the render service gives an application when it starts it. */
export interface AppHost {
  /** The process environment: the app parses the variables it owns, once. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: RuntimeLogger;
  /**
   * The service's Prometheus registry (served at /metrics), for the app's clients to count
   * their calls in (absent: metrics are off). Tracing outgoing calls is the clients' own
   * concern, through the process's telemetry SDK.
   */
  readonly metrics?: Registry;
}

/** What a request's services are built from. */
export interface AppRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request's trace (the one its logs, reports and error screen name). */
  readonly traceId: string;
  /** A W3C caller's `tracestate`, to forward beside `traceparent` (absent: none to forward). */
  readonly tracestate?: string | undefined;
  /** The gateway's request id, to pass on to the app's own backends. */
  readonly requestId: string;
  /** Aborts when the client goes away before its answer is complete. */
  readonly signal?: AbortSignal | undefined;
}

/** A started application. */
export interface RunningApp<Services> {
  /** The routes the server answers (the browser bundle holds the app's whole table). */
  readonly routes: RouteTable<Services>;
  /** The services loaders and actions receive for one request. */
  servicesFor(request: AppRequest): Services;
  /**
   * Routes of the app's own beside its pages (a JSON API, webhooks), matched before the pages'
   * catch-all: web-standard handlers, whatever server runs them.
   */
  readonly handlers?: readonly AppHandler<Services>[];
  /** Whether the app can serve (its backends answer); `/readyz` reports `details` as they are. */
  readiness?(): Promise<AppReadiness>;
  /**
   * Follows the app's change feed so the segment cache drops what changed, whoever changed it
   * (absent: only the app's own revalidations invalidate).
   */
  watchChanges?(subscriber: ChangeSubscriber): { stop(): void };
  /** Closes the app's connections, once the server has answered its last request. */
  close(): Promise<void>;
}

/** The methods an app's own route may answer; `*` answers every one. */
export type AppHandlerMethod =
  'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | '*';

/** One route of the app's own: a `Request` in, a `Response` out. */
export interface AppHandler<Services> {
  readonly method: AppHandlerMethod;
  /**
   * The path: static parts, `:name` params and a last `*` for the rest, e.g. `/api/items/:id`
   * or `/api/*` (the rest is the param `*`).
   */
  readonly path: string;
  /**
   * Media types of the bodies it reads, e.g. `['application/json']`: a body of another type is
   * refused with 415 before it is read (absent: every type reaches the handler).
   */
  readonly accepts?: readonly string[];
  /**
   * Answers the request. Its body is at most the host's limit (larger ones are refused with 413
   * before this runs); its `signal` aborts when the client goes away. A throw answers 500 with a
   * digest, never the error's message.
   */
  handle(request: Request, context: AppHandlerContext<Services>): Promise<Response>;
}

/** What a handler gets beside the request. */
export interface AppHandlerContext<Services> {
  readonly params: Readonly<Record<string, string>>;
  /** The request's services, as loaders and actions get them. */
  readonly services: Services;
  /** Drops cached segments by tag, as an action's `revalidate` does. */
  revalidate(tags: readonly string[]): Promise<void>;
}

/** What `readiness` answers. */
export interface AppReadiness {
  readonly ready: boolean;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Where an app's change feed reports. */
export interface ChangeSubscriber {
  /** Data behind these tags changed. */
  onTags(tags: readonly string[]): Promise<void>;
  /** Changes may have been missed: everything derived from the app's data is suspect. */
  onReset(): Promise<void>;
}
