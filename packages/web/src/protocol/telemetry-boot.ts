/**
 * What the server tells the browser runtime about telemetry, inside the boot record: the
 * public SDK settings (a DSN's public key is public by design) and the trace of the request
 * that rendered the document, which the page load continues.
 */

/** Public settings of the browser SDK. */
export interface BrowserTelemetrySettings {
  readonly dsn: string;
  /** Same-origin path envelopes are posted to (the relay's tunnel). */
  readonly tunnel: string;
  readonly environment: string;
  readonly release?: string;
  readonly tracesSampleRate: number;
}

/** The document request's trace, as the headers that would carry it. */
export interface DocumentTrace {
  readonly traceId: string;
  readonly sentryTrace: string;
  readonly baggage?: string;
}

/** The boot record's `telemetry` field. */
export interface TelemetryBoot extends BrowserTelemetrySettings {
  readonly trace?: DocumentTrace;
}
