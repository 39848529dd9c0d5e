/**
 * @sentry/node for one service, behind the small interface the services use: report an error
 * once with the tags that link its reports, read the current trace, name the request's
 * transaction, trace gRPC calls on both sides. Without a DSN every method is a no-op, so call
 * sites never branch on whether telemetry is on.
 */
import * as Sentry from '@sentry/node';
import { grpcCallSpan, incomingTrace, type GrpcTraceHeaders } from './grpc-trace-headers.js';
import { traceGrpcClientCall } from './grpc-client-span.js';
import { continueW3cTraceparent } from './incoming-traceparent.js';
import { relayTunnelUrl, type TelemetrySettings } from './telemetry-config.js';

/** The trace the current request belongs to, in the forms that carry it further. */
export interface CurrentTrace {
  readonly traceId: string;
  readonly sentryTrace: string;
  readonly baggage?: string;
}

/** What a service reports through. */
export interface NodeTelemetry {
  readonly enabled: boolean;
  /** Reports an unexpected error once; returns the event id (undefined when off). */
  captureError(error: unknown, tags?: Readonly<Record<string, string>>): string | undefined;
  /** The trace of the current async context (undefined when off). */
  currentTrace(): CurrentTrace | undefined;
  /** Names the current request's transaction, e.g. `GET /items/:id`. */
  nameTransaction(name: string): void;
  /** Runs one outgoing gRPC call in a `grpc.client` span; `run` gets the headers to send. */
  traceGrpcClientCall<T>(
    method: string,
    run: (headers: GrpcTraceHeaders) => Promise<T>,
  ): Promise<T>;
  /** Runs one incoming gRPC call as a `grpc.server` transaction continuing the caller's trace. */
  traceGrpcServerCall<T>(
    method: string,
    incoming: GrpcTraceHeaders,
    run: () => Promise<T>,
  ): Promise<T>;
  /** Sends what is queued (shutdown); false when `timeoutMs` ran out first. */
  close(timeoutMs: number): Promise<boolean>;
}

/** Identifies the reporting service. */
export interface ServiceIdentity {
  readonly service: string;
  readonly release?: string | undefined;
  /** Transactions not worth sending (probes, static files, the tunnel itself). */
  readonly ignoreTransactions?: readonly RegExp[];
}

/** Telemetry that is off: every method is a no-op (tests and services without SENTRY_DSN). */
export const DISABLED_TELEMETRY: NodeTelemetry = {
  enabled: false,
  captureError: () => undefined,
  currentTrace: () => undefined,
  nameTransaction: () => undefined,
  traceGrpcClientCall: (_method, run) => run({}),
  traceGrpcServerCall: (_method, _incoming, run) => run(),
  close: async () => true,
};

/** Starts the SDK when SENTRY_DSN is set (once per process; the composition root calls it). */
export function startNodeTelemetry(
  settings: TelemetrySettings,
  identity: ServiceIdentity,
): NodeTelemetry {
  if (!settings.SENTRY_DSN) return DISABLED_TELEMETRY;
  Sentry.init({
    dsn: settings.SENTRY_DSN,
    // Everything goes through the relay's tunnel endpoint, which applies filters and limits.
    tunnel: relayTunnelUrl(settings),
    environment: settings.SENTRY_ENVIRONMENT,
    ...(identity.release && { release: identity.release }),
    serverName: identity.service,
    initialScope: { tags: { service: identity.service } },
    tracesSampleRate: settings.SENTRY_TRACES_SAMPLE_RATE,
    // Whole transactions, like the browser (docs/telemetry.md says why).
    traceLifecycle: 'static',
    maxBreadcrumbs: 100,
    maxValueLength: 250,
    ignoreSpans: [...(identity.ignoreTransactions ?? [])],
    // Requests are named by the application's routes; Fastify's own spans would only add noise.
    integrations: (defaults) => defaults.filter((integration) => integration.name !== 'Fastify'),
  });
  // The SDK continues only sentry-trace over HTTP; this adds it for callers sending traceparent.
  const stopContinuingW3c = continueW3cTraceparent();
  return {
    enabled: true,
    captureError(error, tags = {}) {
      return Sentry.withScope((scope) => {
        scope.setTags(tags);
        return Sentry.captureException(error);
      });
    },
    currentTrace() {
      const data = Sentry.getTraceData();
      const sentryTrace = data['sentry-trace'];
      if (!sentryTrace) return undefined;
      return {
        traceId: sentryTrace.slice(0, 32),
        sentryTrace,
        ...(data.baggage && { baggage: data.baggage }),
      };
    },
    nameTransaction(name) {
      const active = Sentry.getActiveSpan();
      if (!active) return;
      const root = Sentry.getRootSpan(active);
      Sentry.updateSpanName(root, name);
      root.setAttribute('sentry.source', 'route');
    },
    traceGrpcClientCall,
    traceGrpcServerCall(method, incoming, run) {
      return Sentry.withIsolationScope(() =>
        Sentry.continueTrace(incomingTrace(incoming), () =>
          Sentry.startSpan({ ...grpcCallSpan('server', method), forceTransaction: true }, run),
        ),
      );
    },
    close(timeoutMs) {
      stopContinuingW3c();
      return Sentry.close(timeoutMs);
    },
  };
}
