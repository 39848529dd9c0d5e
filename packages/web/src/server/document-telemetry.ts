/**
 * The boot record's telemetry field for the current request: the browser SDK's public
 * settings plus the request's trace, so the page load continues it.
 */
import type { TelemetryBoot } from '../protocol/telemetry-boot.js';
import type { WebRuntime } from './web-runtime.js';

/** Undefined when the application configured no telemetry. */
export function documentTelemetry(runtime: WebRuntime<never>): TelemetryBoot | undefined {
  const telemetry = runtime.telemetry;
  if (!telemetry) return undefined;
  const trace = telemetry.currentTrace();
  return { ...telemetry.browser, ...(trace && { trace }) };
}
