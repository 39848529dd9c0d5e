/**
 * The telemetry variables every Node service reads, as schema fields a service spreads into its
 * own config schema (so they are parsed once, with the rest, by its composition root).
 */
import { url } from '@strata/config';
import { z } from 'zod';

// http(s)://<public key>@<host>/<numeric project id>, as Sentry issues them.
const DSN = /^https?:\/\/[\w.-]+(?::[\w.-]*)?@[^/\s]+\/(?:[^\s]*\/)?\d+$/;

/** Schema fields: spread into a service's config schema. */
export const telemetryConfigFields = {
  SENTRY_DSN: z
    .string()
    .regex(DSN, 'must be a Sentry DSN such as https://<key>@<host>/<project id>')
    .optional()
    .describe(
      'DSN errors and traces are reported to (through the relay, which must allow it in RELAY_DSNS). Unset: telemetry off.',
    ),
  SENTRY_ENVIRONMENT: z
    .string()
    .min(1)
    .default('production')
    .describe('Environment name attached to every report.'),
  SENTRY_TRACES_SAMPLE_RATE: z.coerce
    .number()
    .min(0, 'must be between 0 and 1')
    .max(1, 'must be between 0 and 1')
    .default(1)
    .describe('Share of traces recorded (0 to 1); a continued trace keeps its caller’s decision.'),
  RELAY_URL: url(['http', 'https'])
    .default('http://127.0.0.1:3100')
    .describe(
      'Telemetry relay base URL: services report there, and the tunnel path is forwarded there.',
    ),
  SENTRY_TUNNEL: z
    .string()
    .regex(/^\/[\w./-]*$/, 'must be an absolute path such as /monitoring')
    .default('/monitoring')
    .describe(
      'Relay path envelopes are posted to (the relay’s RELAY_TUNNEL_PATH); browsers use it same-origin.',
    ),
};

/** The parsed telemetry settings of one service. */
export interface TelemetrySettings {
  readonly SENTRY_DSN?: string | undefined;
  readonly SENTRY_ENVIRONMENT: string;
  readonly SENTRY_TRACES_SAMPLE_RATE: number;
  readonly RELAY_URL: string;
  readonly SENTRY_TUNNEL: string;
}

/** Where a service posts its envelopes: the relay's tunnel endpoint. */
export function relayTunnelUrl(settings: TelemetrySettings): string {
  return new URL(settings.SENTRY_TUNNEL, settings.RELAY_URL).href;
}
