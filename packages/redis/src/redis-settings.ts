/**
 * The REDIS_* settings every service that shares a Redis reads, and the target they name: one
 * server by URL, or a master found through a Sentinel group. A service spreads
 * `redisConfigFields` into its schema and calls `checkRedisSettings` from its `superRefine`, so
 * the variables, their documentation and their mistakes are the same everywhere.
 */
import { bool, csvList, url } from '@strata/config';
import { z } from 'zod';
import type { RedisTarget } from './redis-client.js';

const SENTINEL_ADDRESS = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]+))(?::(\d{1,5}))?$/;
const SENTINEL_PORT = 26379;

/** `host[:port]` entries (IPv6 in brackets, port 26379 when left out), comma-separated. */
function sentinelAddresses() {
  return csvList().transform((entries, ctx) =>
    entries.map((entry) => {
      const match = SENTINEL_ADDRESS.exec(entry);
      const portNumber = match?.[3] === undefined ? SENTINEL_PORT : Number(match[3]);
      if (!match || portNumber < 1 || portNumber > 65_535) {
        ctx.addIssue({ code: 'custom', message: `"${entry}" is not host[:port]` });
        return z.NEVER;
      }
      return { host: (match[1] ?? match[2])!, port: portNumber };
    }),
  );
}

/** Settings that only mean something with REDIS_SENTINELS. */
const SENTINEL_ONLY = [
  'REDIS_PASSWORD',
  'REDIS_SENTINEL_PASSWORD',
  'REDIS_TLS',
  'REDIS_SENTINEL_TLS',
] as const;

/** The schema fields; `purpose` says what this service keeps in Redis (for the docs). */
export function redisConfigFields(purpose: string) {
  return {
    REDIS_URL: url(['redis', 'rediss'])
      .optional()
      .describe(
        `Redis shared by every replica for ${purpose}. Unset (and no REDIS_SENTINELS): kept in process.`,
      ),
    REDIS_SENTINELS: sentinelAddresses().describe(
      `Sentinels (host[:port], comma-separated) that name the master of the Redis for ${purpose}; instead of REDIS_URL.`,
    ),
    REDIS_SENTINEL_MASTER: z
      .string()
      .min(1)
      .default('strata')
      .describe('Name of the master group the sentinels watch (their `sentinel monitor` name).'),
    REDIS_PASSWORD: z
      .string()
      .min(1)
      .optional()
      .describe('With REDIS_SENTINELS: password of the master and its replicas.'),
    REDIS_SENTINEL_PASSWORD: z
      .string()
      .min(1)
      .optional()
      .describe('With REDIS_SENTINELS: password of the sentinels.'),
    REDIS_TLS: bool(false).describe('With REDIS_SENTINELS: TLS to the master.'),
    REDIS_SENTINEL_TLS: bool(false).describe('With REDIS_SENTINELS: TLS to the sentinels.'),
  };
}

/** The parsed values of those fields. */
export type RedisSettings = z.output<z.ZodObject<ReturnType<typeof redisConfigFields>>>;

/** Reports REDIS_URL with REDIS_SENTINELS, and Sentinel-only settings without it. */
export function checkRedisSettings(config: RedisSettings, ctx: z.RefinementCtx): void {
  // Reported on REDIS_SENTINELS: the others' values may be secrets, and the message shows them.
  const sentinels = config.REDIS_SENTINELS.length > 0;
  if (sentinels && config.REDIS_URL)
    ctx.addIssue({
      code: 'custom',
      path: ['REDIS_SENTINELS'],
      message: 'REDIS_URL and REDIS_SENTINELS are exclusive: set one of them',
    });
  const sentinelOnly = SENTINEL_ONLY.filter((name) => config[name]);
  if (!sentinels && sentinelOnly.length > 0)
    ctx.addIssue({
      code: 'custom',
      path: ['REDIS_SENTINELS'],
      message: `${sentinelOnly.join(', ')} only apply with REDIS_SENTINELS (REDIS_URL carries its own password and TLS)`,
    });
}

/** Where the settings point: a URL, a Sentinel group, or nowhere (no shared Redis). */
export function redisTargetFrom(config: RedisSettings): RedisTarget | undefined {
  if (config.REDIS_URL) return { url: config.REDIS_URL };
  if (config.REDIS_SENTINELS.length === 0) return undefined;
  return {
    sentinels: config.REDIS_SENTINELS,
    masterName: config.REDIS_SENTINEL_MASTER,
    password: config.REDIS_PASSWORD,
    sentinelPassword: config.REDIS_SENTINEL_PASSWORD,
    tls: config.REDIS_TLS,
    sentinelTls: config.REDIS_SENTINEL_TLS,
  };
}
