/**
 * The data service's environment: every variable, its default and meaning, parsed once by the
 * composition root and passed down. Nothing else reads process.env.
 */
import {
  bool,
  durationMs,
  loadConfig,
  oneOf,
  pemFile,
  port,
  requireTogether,
  positiveInt,
  url,
} from '@strata/config';
import { telemetryConfigFields } from '@strata/telemetry';
import { z } from 'zod';

/** Every variable the data service reads. `describeConfig(DataConfigSchema)` documents them. */
export const DataConfigSchema = z
  .object({
    DATA_PORT: port(50051).describe('gRPC port.'),
    DATA_HOST: z.string().default('127.0.0.1').describe('Address to bind (0.0.0.0 in containers).'),
    // No default port: the service also runs embedded (tests, benchmarks, several replicas on one
    // host), where a fixed port would collide. The image sets 9464.
    DATA_METRICS_PORT: port(0)
      .unwrap()
      .optional()
      .describe(
        'Port of the Prometheus `GET /metrics` listener (HTTP, on DATA_HOST; 0: any free port). Unset: no listener. The image sets 9464.',
      ),
    DATA_TLS_CERT: pemFile().describe(
      'Certificate (PEM file, chain included) the service shows its clients. Set with DATA_TLS_KEY: gRPC over TLS only. Unset: plaintext.',
    ),
    DATA_TLS_KEY: pemFile().describe('Private key (PEM file) of DATA_TLS_CERT.'),
    DATA_TLS_CA: pemFile().describe(
      'CA certificate (PEM file): set, every client must show a certificate it signed (mutual TLS).',
    ),
    DATABASE_URL: url(['postgres', 'postgresql'])
      .optional()
      .describe('PostgreSQL connection URL. Unset: embedded PGlite in DATA_DIR.'),
    DATA_DIR: z
      .string()
      .default('.data/pglite')
      .describe(
        'PGlite data directory (only without DATABASE_URL); "memory://" keeps it in memory.',
      ),
    PGLITE_WORKER: bool(true).describe(
      'Run PGlite in a worker thread, so queries overlap gRPC encoding and I/O (only without DATABASE_URL); false runs it on the gRPC thread.',
    ),
    DATABASE_POOL_SIZE: positiveInt(10, 200).describe('PostgreSQL connections per process.'),
    DATA_SEED: bool(true).describe('Seed the benchmark catalogue into an empty database on start.'),
    PAGE_TOKEN_SECRET: z
      .string()
      .min(16, 'must be at least 16 characters')
      .optional()
      .describe(
        'Key that signs page tokens; set the same value on every replica. Unset: a development key (logged as a warning).',
      ),
    DATA_SHUTDOWN_GRACE: durationMs('10s').describe(
      'How long graceful shutdown waits for calls to finish before cancelling them.',
    ),
    CHANGE_RETENTION: positiveInt(10_000).describe(
      'How many committed changes WatchChanges can replay to a resuming watcher.',
    ),
    ...telemetryConfigFields,
    LOG_LEVEL: oneOf(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'info',
    ).describe('pino log level.'),
  })
  .superRefine((config, ctx) => {
    requireTogether(config, ['DATA_TLS_CERT', 'DATA_TLS_KEY'], ctx);
    if (config.DATA_TLS_CA && !config.DATA_TLS_CERT)
      ctx.addIssue({
        code: 'custom',
        path: ['DATA_TLS_CA'],
        message:
          'asks clients for certificates, which needs TLS: set DATA_TLS_CERT and DATA_TLS_KEY',
      });
  });

/** Parsed, frozen data-service configuration. */
export type DataConfig = Readonly<z.output<typeof DataConfigSchema>>;

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadDataConfig(env: Readonly<Record<string, string | undefined>>): DataConfig {
  return loadConfig('data service', DataConfigSchema, env);
}

/** The page-token key used when PAGE_TOKEN_SECRET is unset; fine for one local process only. */
export const DEVELOPMENT_PAGE_TOKEN_SECRET = 'strata-development-page-token-key';
