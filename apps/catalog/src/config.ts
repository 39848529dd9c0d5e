/**
 * The catalogue app's settings, parsed once when the render service starts the app.
 */
import type { TlsSettings } from '@strata/catalog-client';
import { bool, durationMs, loadConfig, pemFile, requireTogether } from '@strata/config';
import { z } from 'zod';

/** Every variable the catalogue app reads. */
export const CatalogConfigSchema = z
  .object({
    DATA_SERVICE_ADDRESS: z
      .string()
      .default('127.0.0.1:50051')
      .describe(
        'host:port of the gRPC data service, or several separated by commas; calls are spread over every address a name resolves to.',
      ),
    DATA_TLS_CA: pemFile().describe(
      'CA certificate (PEM file) that signed the data service’s certificate. Set: connect over TLS. Unset: plaintext.',
    ),
    DATA_TLS_CERT: pemFile().describe(
      'Client certificate (PEM file) shown to a data service that requires mutual TLS; with DATA_TLS_KEY.',
    ),
    DATA_TLS_KEY: pemFile().describe('Private key (PEM file) of DATA_TLS_CERT.'),
    DATA_DEADLINE: durationMs('2s').describe('Deadline of one data-service call.'),
    RENDER_ERROR_DRILLS: bool(false).describe(
      'Serve the deliberately failing drill pages (/errors/*); for tests and development only.',
    ),
  })
  .superRefine((config, ctx) => {
    requireTogether(config, ['DATA_TLS_CERT', 'DATA_TLS_KEY'], ctx);
    if (config.DATA_TLS_CERT && !config.DATA_TLS_CA)
      ctx.addIssue({
        code: 'custom',
        path: ['DATA_TLS_CA'],
        message: 'is needed with DATA_TLS_CERT (a client certificate is only sent over TLS)',
      });
  });

/** Parsed, frozen catalogue settings. */
export type CatalogConfig = Readonly<z.output<typeof CatalogConfigSchema>>;

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadCatalogConfig(
  env: Readonly<Record<string, string | undefined>>,
): CatalogConfig {
  return loadConfig('catalogue app', CatalogConfigSchema, env);
}

/** TLS to the data service, or undefined for plaintext. */
export function dataTlsSettings(config: CatalogConfig): TlsSettings | undefined {
  if (!config.DATA_TLS_CA) return undefined;
  return { ca: config.DATA_TLS_CA, cert: config.DATA_TLS_CERT, key: config.DATA_TLS_KEY };
}
