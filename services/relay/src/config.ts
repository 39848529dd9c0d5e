/**
 * The relay's environment schema, parsed once by the composition root (`loadRelayConfig` is
 * pure: it takes the env record). Every variable is documented in docs/relay.md.
 */
import {
  bool,
  csvList,
  durationMs,
  loadConfig,
  oneOf,
  port,
  positiveInt,
  url,
} from '@strata/config';
import { checkRedisSettings, redisConfigFields } from '@strata/redis';
import { z } from 'zod';
import { parseDsn } from './dsn/dsn.js';
import { DEFAULT_FILTERS, FILTER_IDS, type FilterId } from './filters/filter.js';
import { SPEC_EVENT_LIMITS } from './limits/event-limits.js';
import { projectOptionsVariable } from './project-options.js';

const KIB = 1024;
const MIB = 1024 * KIB;

/** A whole number of at least 0, where 0 switches the limit off. */
function limitOrOff(defaultValue: number) {
  return z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(0, 'must be 0 (off) or more')
    .default(defaultValue);
}

/** A `|`-separated list (glob lists: commas belong to `{a,b}` alternatives). */
function pipeList() {
  return z
    .string()
    .default('')
    .transform((raw) =>
      raw
        .split('|')
        .map((entry) => entry.trim())
        .filter((entry) => entry.length > 0),
    );
}

/** Environment schema of the relay. */
export const RelayConfigSchema = z
  .object({
    RELAY_PORT: port(3100).describe('Port to listen on'),
    RELAY_HOST: z.string().default('127.0.0.1').describe('Address to bind (0.0.0.0 in containers)'),
    RELAY_DSNS: csvList()
      .refine((list) => list.every((dsn) => parseDsn(dsn) !== null), {
        message: 'every entry must be a DSN like https://<key>@<host>/<projectId>',
      })
      .describe('Allowed DSNs, comma-separated; envelopes for any other DSN get 403'),
    RELAY_UPSTREAM_KIND: oneOf(['sentry', 'spotlight'], 'sentry').describe(
      'sentry: Sentry ingest API; spotlight: the Spotlight sidecar /stream endpoint',
    ),
    RELAY_UPSTREAM: url(['http', 'https'])
      .optional()
      .describe(
        'Origin that replaces every DSN host (default: the DSN host; Spotlight: http://localhost:8969)',
      ),
    RELAY_TUNNEL_PATH: z
      .string()
      .default('/monitoring')
      .refine((path) => /^\/[\w\-/.]*$/.test(path), { message: 'must be a path starting with /' })
      .describe('Same-origin tunnel path; the DSN comes from the envelope header'),
    RELAY_ALLOWED_ORIGINS: csvList().describe(
      'CORS origins allowed to post; empty = any origin (like Sentry ingest)',
    ),
    RELAY_TRUST_PROXY: bool(false).describe(
      'Take the client IP from X-Forwarded-For (behind the gateway)',
    ),
    RELAY_MAX_BODY_BYTES: positiveInt(20 * MIB).describe(
      'Largest request body before decompression',
    ),
    RELAY_MAX_ENVELOPE_BYTES: positiveInt(20 * MIB).describe(
      'Largest envelope after decompression',
    ),
    RELAY_MAX_HEADER_BYTES: positiveInt(8 * KIB).describe(
      'Largest envelope header line and item header line',
    ),
    RELAY_MAX_ITEMS: positiveInt(1000).describe('Most items in one envelope'),
    RELAY_MAX_JSON_DEPTH: positiveInt(128).describe('Deepest nesting of parsed JSON'),
    RELAY_MAX_EVENT_BYTES: positiveInt(1 * MIB).describe('Largest event-like item'),
    RELAY_MAX_ATTACHMENTS_BYTES: positiveInt(20 * MIB).describe('All attachments of one envelope'),
    RELAY_MAX_CLIENT_REPORT_BYTES: positiveInt(4 * KIB).describe('Largest client report item'),
    RELAY_MAX_CHECK_IN_BYTES: positiveInt(100 * KIB).describe('Largest check-in item'),
    RELAY_MAX_PROFILE_BYTES: positiveInt(20 * MIB).describe('Largest profile item'),
    RELAY_MAX_REPLAY_BYTES: positiveInt(10 * MIB).describe('Largest replay recording or video'),
    RELAY_MAX_CONTAINER_BYTES: positiveInt(2 * MIB).describe(
      'Largest span, log or metric container, by its bytes',
    ),
    RELAY_MAX_ITEM_BYTES: positiveInt(1 * MIB).describe(
      'Largest item of any other type, unknown types included',
    ),
    RELAY_MAX_SESSIONS: positiveInt(100).describe('Most session items in one envelope'),
    RELAY_MAX_BUFFERED_BYTES: positiveInt(64 * MIB).describe(
      'Bytes all requests being read may hold together, beyond 64 KiB each',
    ),
    RELAY_REFUSED_BODY_RATE: limitOrOff(2 * MIB).describe(
      'Bytes per second all refused bodies are read on at, together (0 = unmetered)',
    ),
    RELAY_RATE_LIMIT_WINDOW: durationMs('10s').describe('Window of the per-client request limits'),
    RELAY_RATE_LIMIT_PER_ADDRESS: limitOrOff(1000).describe(
      'Requests per window from one client address (0 = off)',
    ),
    RELAY_RATE_LIMIT_PER_KEY: limitOrOff(10_000).describe(
      'Requests per window for one project key (0 = off)',
    ),
    ...redisConfigFields('the per-client and per-key request limits'),
    REDIS_COMMAND_TIMEOUT: durationMs('100ms').describe(
      'Deadline of one Redis call; a slower answer is decided with this replica’s share of the limit',
    ),
    RELAY_REDIS_KEY_PREFIX: z
      .string()
      .min(1)
      .default('strata:relay:v1:')
      .describe('Namespace of the keys the shared request limits and event ids keep in Redis'),
    RELAY_DEDUPE_WINDOW: durationMs('10m').describe(
      'How long an accepted event id is remembered: the same event sent again within it is answered as accepted and not forwarded twice (0 = off)',
    ),
    RELAY_DEDUPE_MAX_IDS: positiveInt(50_000, 10_000_000).describe(
      'Most event ids one relay remembers at once (the oldest is forgotten first)',
    ),
    RELAY_REPLICAS: positiveInt(1).describe(
      'Replicas sharing the request limits; without Redis, or while it is unreachable, each admits this share of them',
    ),
    RELAY_HEADERS_TIMEOUT: durationMs('10s').describe(
      'Time a client has to send the request headers (at most RELAY_REQUEST_TIMEOUT)',
    ),
    RELAY_BODY_IDLE_TIMEOUT: durationMs('10s').describe(
      'Longest silence on a connection, body included',
    ),
    RELAY_REQUEST_TIMEOUT: durationMs('30s').describe(
      'Time a client has to send the whole request (headers and body)',
    ),
    RELAY_MAX_IN_FLIGHT: positiveInt(64, 1024).describe('Envelopes in flight upstream at once'),
    RELAY_UPSTREAM_TIMEOUT: durationMs('30s').describe('Timeout of one upstream request'),
    RELAY_SHUTDOWN_TIMEOUT: durationMs('10s').describe(
      'On SIGTERM, how long to send what the spool holds (what is left stays spooled for the next start)',
    ),
    RELAY_RETRY_BASE: durationMs('1s').describe('First retry delay after a network error or 5xx'),
    RELAY_RETRY_MAX: durationMs('5m').describe('Longest retry delay'),
    RELAY_RETRY_ATTEMPTS: positiveInt(12).describe('Attempts per envelope before it is dropped'),
    RELAY_SPOOL_DIR: z.string().default('.spool/relay').describe('Directory of the durable spool'),
    RELAY_SPOOL_SHARED: bool(false).describe(
      'RELAY_SPOOL_DIR is one volume shared by several replicas: each leases a slot directory under it, and sends what gone replicas left',
    ),
    RELAY_SPOOL_LEASE_STALE: durationMs('30s')
      .refine((ms) => ms >= 2000, 'must be at least 2s')
      .describe(
        'With RELAY_SPOOL_SHARED, a slot whose lease was not refreshed for this long belongs to a gone replica',
      ),
    RELAY_INSTANCE_ID: z
      .string()
      .regex(/^[\w.-]{1,128}$/, 'must be letters, digits, ".", "_" or "-" (at most 128)')
      .optional()
      .describe(
        "With RELAY_SPOOL_SHARED, this replica's name across restarts (default: the host name, a container's id)",
      ),
    RELAY_SPOOL_MAX_BYTES: positiveInt(512 * MIB).describe(
      'Spool size bound; beyond it new envelopes get 503',
    ),
    RELAY_SPOOL_PROJECT_SHARE: z.coerce
      .number({ error: 'must be a number' })
      .gt(0, 'must be above 0')
      .max(1, 'must be at most 1')
      .default(0.5)
      .describe(
        "Fraction of RELAY_SPOOL_MAX_BYTES one DSN key's undelivered envelopes may hold; beyond it 429",
      ),
    RELAY_SPOOL_MAX_AGE: durationMs('24h').describe('Envelopes older than this are dropped unsent'),
    RELAY_SPOOL_SEGMENT_BYTES: positiveInt(16 * MIB).describe(
      'Size at which a spool segment file rotates',
    ),
    RELAY_SPOOL_MEMORY_BYTES: positiveInt(16 * MIB).describe(
      'Spooled bodies also kept in memory up to this',
    ),
    RELAY_SPOOL_FSYNC: bool(true).describe(
      'fsync before acknowledging (off only for throwaway setups)',
    ),
    RELAY_CLIENT_REPORT_INTERVAL: durationMs('10s').describe(
      'How often drop outcomes are sent upstream',
    ),
    RELAY_FILTERS: csvList(DEFAULT_FILTERS.join(','))
      .refine((ids) => ids.every((id) => (FILTER_IDS as readonly string[]).includes(id)), {
        message: `unknown filter; known: ${FILTER_IDS.join(', ')}`,
      })
      .transform((ids) => ids as FilterId[])
      .describe('Enabled filters, comma-separated'),
    RELAY_FILTER_REDIRECT_MARKERS: csvList('STRATA_REDIRECT,NEXT_REDIRECT').describe(
      'Exception values/types that mark redirect control flow',
    ),
    RELAY_FILTER_ERROR_MESSAGES: pipeList().describe('Error-message globs, |-separated'),
    RELAY_FILTER_TRANSACTIONS: pipeList().describe('Transaction-name globs, |-separated'),
    RELAY_FILTER_RELEASES: pipeList().describe('Release globs, |-separated'),
    RELAY_FILTER_CLIENT_IPS: csvList().describe('Client IPs or CIDR ranges to drop'),
    RELAY_FILTER_LEGACY_BROWSERS: csvList('default').describe(
      'Legacy-browser options (default, ie11, ...)',
    ),
    RELAY_PROJECT_OPTIONS: projectOptionsVariable().describe(
      'Per-project filter overrides as JSON: {"<projectId>": {"filters": [...], "errorMessages": [...], ...}}',
    ),
    RELAY_MAX_VALUE_LENGTH: positiveInt(SPEC_EVENT_LIMITS.maxValueLength).describe(
      'Message and exception value cap (characters)',
    ),
    RELAY_MAX_BREADCRUMBS: positiveInt(SPEC_EVENT_LIMITS.maxBreadcrumbs).describe(
      'Breadcrumbs kept (the newest)',
    ),
    RELAY_MAX_FRAMES: positiveInt(SPEC_EVENT_LIMITS.maxFrames).describe(
      'Stack frames kept per exception (the innermost)',
    ),
    RELAY_SCRUB_PII: bool(false).describe('Remove cookies/auth headers, truncate IPs, mask tokens'),
    RELAY_DEBUG_ENDPOINT: bool(false).describe('Serve POST /debug/explain'),
    RELAY_OTLP_TRACES_URL: url(['http', 'https'])
      .optional()
      .describe(
        'OTLP/HTTP traces endpoint (…/v1/traces): accepted transactions also go there as spans',
      ),
    RELAY_OTLP_HEADERS: csvList()
      .refine(
        (entries) => entries.every((entry) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*=/.test(entry)),
        'every entry must be name=value with an HTTP header name',
      )
      .describe(
        'Headers sent to the OTLP endpoint, `name=value` comma-separated (e.g. an API key)',
      ),
    RELAY_OTLP_ONLY: bool(false).describe(
      'Transactions go to the OTLP endpoint only, not upstream (errors and the rest still do)',
    ),
    RELAY_OTLP_TIMEOUT: durationMs('10s').describe('Timeout of one request to the OTLP endpoint'),
    RELAY_LOG_LEVEL: oneOf(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'info',
    ).describe('pino log level'),
  })
  .superRefine((config, ctx) => {
    checkRedisSettings(config, ctx);
    if (config.RELAY_OTLP_ONLY && !config.RELAY_OTLP_TRACES_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['RELAY_OTLP_ONLY'],
        message: 'needs RELAY_OTLP_TRACES_URL: without it, transactions would go nowhere',
      });
  });

/** The parsed, frozen relay configuration. */
export type RelayConfig = Readonly<z.output<typeof RelayConfigSchema>>;

/** Parses the relay's environment; throws a `ConfigError` listing every bad key. */
export function loadRelayConfig(env: Readonly<Record<string, string | undefined>>): RelayConfig {
  return loadConfig('relay', RelayConfigSchema, env);
}

/**
 * Defaults `npm start` uses for local development (Spotlight upstream, a local DSN); values
 * already present in `env` always win.
 */
export function withDevDefaults(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const defaults: Record<string, string> = {
    RELAY_UPSTREAM_KIND: 'spotlight',
    RELAY_UPSTREAM: 'http://localhost:8969',
    RELAY_DSNS: 'http://strata0dev0key@localhost:3100/1',
    RELAY_SPOOL_DIR: '.spool/relay-dev',
    RELAY_DEBUG_ENDPOINT: 'true',
  };
  const merged: Record<string, string | undefined> = { ...defaults };
  for (const [key, value] of Object.entries(env))
    if (value !== undefined && value !== '') merged[key] = value;
  return merged;
}
