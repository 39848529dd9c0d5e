/**
 * The render service's environment, parsed once by the composition root.
 */
import { bool, csvList, durationMs, loadConfig, oneOf, port } from '@strata/config';
import { checkRedisSettings, redisConfigFields } from '@strata/redis';
import { telemetryConfigFields } from '@strata/telemetry';
import { z } from 'zod';
import { cspSources } from './csp-sources.js';

const BYTE_SIZE = /^(\d+)\s*(B|KiB|MiB|GiB)?$/i;
const BYTE_UNITS: Record<string, number> = { b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** A size such as `512KiB`, `64MiB` or a bare number of bytes; parsed to bytes. */
function byteSize(defaultValue: string) {
  return z
    .string()
    .default(defaultValue)
    .transform((raw, ctx) => {
      const match = BYTE_SIZE.exec(raw.trim());
      const bytes = match
        ? Number(match[1]) * (BYTE_UNITS[(match[2] ?? 'b').toLowerCase()] ?? 1)
        : 0;
      if (!match || bytes < 1 || !Number.isSafeInteger(bytes)) {
        ctx.addIssue({ code: 'custom', message: `"${raw}" is not a size like 512KiB or 64MiB` });
        return z.NEVER;
      }
      return bytes;
    });
}

function positiveDuration(defaultValue: string) {
  return durationMs(defaultValue).refine((ms) => ms > 0, 'must be longer than 0');
}

/** Every variable the render service reads. */
export const RenderConfigSchema = z
  .object({
    RENDER_PORT: port(3000).describe('HTTP port.'),
    RENDER_HOST: z
      .string()
      .default('127.0.0.1')
      .describe('Address to bind (0.0.0.0 in containers).'),
    RENDER_APP: z
      .string()
      .regex(
        /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/,
        'must be a package name such as @strata/app-catalog',
      )
      .default('@strata/app-catalog')
      .describe(
        'The application served: a package whose default export is a Strata app (see docs/guide.md); it reads its own settings.',
      ),
    RENDER_APP_ROOT: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Directory RENDER_APP is installed for (found in its node_modules or a parent’s). Unset: the directory the service is started from.',
      ),
    PUBLIC_ORIGINS: csvList().describe(
      'Origins (scheme://host[:port]) whose pages may call server actions. Empty: the origin the request was made to.',
    ),
    TRUSTED_PROXIES: csvList('127.0.0.1,::1').describe(
      'IP addresses or CIDR ranges whose X-Forwarded-* headers are believed.',
    ),
    ACTION_SALT: z
      .string()
      .min(8, 'must be at least 8 characters')
      .optional()
      .describe(
        'Salt of server-action ids; the same on every replica. Unset: a development salt, with a warning.',
      ),
    BUILD_ID: z
      .string()
      .optional()
      .describe('Build identifier sent as Strata-Build. Unset: the client bundle’s content hash.'),
    RENDER_TIMEOUT: durationMs('10s').describe(
      'A streaming render still waiting after this long is handed to the browser.',
    ),
    RENDER_HEADERS_TIMEOUT: positiveDuration('10s').describe(
      'A client must send its request headers within this long (then 408 and the connection closes).',
    ),
    RENDER_REQUEST_TIMEOUT: positiveDuration('30s').describe(
      'A client must send its whole request, body included, within this long (then 408).',
    ),
    RENDER_IDLE_TIMEOUT: positiveDuration('30s').describe(
      'A connection that moves no byte either way for this long is closed; longer than RENDER_TIMEOUT.',
    ),
    CSP_FRAME_ANCESTORS: cspSources('none', { allowNone: true }).describe(
      'Who may show the pages in a frame (CSP frame-ancestors): none, self or origins.',
    ),
    CSP_CONNECT_SRC: cspSources('').describe(
      'Origins browsers may connect to besides the page’s own (CSP connect-src).',
    ),
    CSP_IMG_SRC: cspSources('').describe(
      'Origins images may come from besides the page’s own and data: (CSP img-src).',
    ),
    ...telemetryConfigFields,
    SEGMENT_CACHE: bool(true).describe(
      'Cache segment payloads (false: every loader runs on every request).',
    ),
    ...redisConfigFields('the segment cache'),
    REDIS_KEY_PREFIX: z
      .string()
      .min(1)
      .default('strata:seg:v1:')
      .describe('Namespace of every key and channel the segment cache uses in Redis.'),
    REDIS_COMMAND_TIMEOUT: durationMs('250ms').describe(
      'Deadline of one Redis call; slower calls count as failures toward the circuit breaker.',
    ),
    SEGMENT_CACHE_MAX_ENTRY: byteSize('512KiB').describe(
      'Largest encoded segment entry that is cached; larger results are served but not stored.',
    ),
    SEGMENT_CACHE_MEMORY: byteSize('64MiB').describe(
      'Bytes of entries kept in process: the front cache with REDIS_URL, the whole cache without.',
    ),
    SEGMENT_CACHE_WAIT: durationMs('2s').describe(
      'How long a navigation that misses waits for another replica already loading that segment.',
    ),
    SEGMENT_CACHE_LOCK: positiveDuration('7s').describe(
      'How long the replica loading a missed segment holds its lock: longer than the app’s slowest loader (the catalogue’s: 3 attempts of DATA_DEADLINE plus backoff).',
    ),
    LOG_LEVEL: oneOf(
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'info',
    ).describe('pino log level.'),
  })
  .superRefine((config, ctx) => {
    // A streaming page may send nothing until RENDER_TIMEOUT hands the rest to the browser.
    if (config.RENDER_IDLE_TIMEOUT <= config.RENDER_TIMEOUT)
      ctx.addIssue({
        code: 'custom',
        path: ['RENDER_IDLE_TIMEOUT'],
        message: `must be longer than RENDER_TIMEOUT (${config.RENDER_TIMEOUT} ms)`,
      });
    if (config.RENDER_HEADERS_TIMEOUT > config.RENDER_REQUEST_TIMEOUT)
      ctx.addIssue({
        code: 'custom',
        path: ['RENDER_HEADERS_TIMEOUT'],
        message: `must not be longer than RENDER_REQUEST_TIMEOUT (${config.RENDER_REQUEST_TIMEOUT} ms)`,
      });
    checkRedisSettings(config, ctx);
  });

/** Parsed, frozen render-service configuration. */
export type RenderConfig = Readonly<z.output<typeof RenderConfigSchema>>;

/** Parses the environment; throws ConfigError naming every bad variable. */
export function loadRenderConfig(env: Readonly<Record<string, string | undefined>>): RenderConfig {
  return loadConfig('render service', RenderConfigSchema, env);
}

/** Used when ACTION_SALT is unset: fine for one developer machine, never for replicas. */
export const DEVELOPMENT_ACTION_SALT = 'strata-development-action-salt';
