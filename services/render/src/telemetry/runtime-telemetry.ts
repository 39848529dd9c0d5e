/**
 * Connects the web runtime to the service's telemetry: the browser SDK's public settings,
 * the current trace, transaction names, and server errors reported with their digest.
 */
import type { NodeTelemetry } from '@strata/telemetry';
import type { RuntimeTelemetry, ServerErrorContext } from '@strata/web/server';
import type { RenderConfig } from '../config.js';

/** The runtime's telemetry hooks; undefined when telemetry is off. */
export function runtimeTelemetry(
  telemetry: NodeTelemetry,
  config: RenderConfig,
  release: string,
): RuntimeTelemetry | undefined {
  if (!telemetry.enabled || !config.SENTRY_DSN) return undefined;
  return {
    browser: {
      dsn: config.SENTRY_DSN,
      tunnel: config.SENTRY_TUNNEL,
      environment: config.SENTRY_ENVIRONMENT,
      release,
      tracesSampleRate: config.SENTRY_TRACES_SAMPLE_RATE,
    },
    currentTrace: () => telemetry.currentTrace(),
    nameTransaction: (name) => telemetry.nameTransaction(name),
  };
}

/** Reports one server error, tagged so the browser's report of it links up. */
export function reportServerError(
  telemetry: NodeTelemetry,
  error: unknown,
  context: ServerErrorContext,
): void {
  telemetry.captureError(error, {
    digest: context.digest,
    trace_id: context.traceId,
    'error.side': 'server',
    ...(context.segmentId && { segment: context.segmentId }),
  });
}
