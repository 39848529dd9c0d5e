/**
 * What the render service refuses to run on with NODE_ENV=production (the image sets it): the
 * development action salt (its own fallback or the committed .env value), no PUBLIC_ORIGINS (the
 * origin check would then trust the Host header), or the committed Redis password (in REDIS_URL,
 * or as REDIS_PASSWORD or REDIS_SENTINEL_PASSWORD with Sentinel). The opt-out
 * for local compose runs is packages/config's STRATA_ALLOW_DEVELOPMENT_SECRETS.
 */
import {
  guardProduction,
  notDevelopmentSecret,
  requiredInProduction,
  type ProductionRule,
} from '@strata/config';
import { DEVELOPMENT_ACTION_SALT, type RenderConfig } from './config.js';

/** The values the committed .env gives the compose stack. */
const COMMITTED_ACTION_SALT = 'compose-development-action-salt';
const COMMITTED_REDIS_PASSWORD = 'strata-development-redis-password';

function redisPassword(config: RenderConfig): string | undefined {
  if (!config.REDIS_URL) return undefined;
  return decodeURIComponent(new URL(config.REDIS_URL).password);
}

const RULES: readonly ProductionRule<RenderConfig>[] = [
  notDevelopmentSecret('ACTION_SALT', (config) => config.ACTION_SALT, [
    DEVELOPMENT_ACTION_SALT,
    COMMITTED_ACTION_SALT,
  ]),
  requiredInProduction('PUBLIC_ORIGINS', (config) => config.PUBLIC_ORIGINS),
  {
    variable: 'REDIS_URL',
    refuse: (config) =>
      redisPassword(config) === COMMITTED_REDIS_PASSWORD
        ? 'carries the committed development password'
        : undefined,
  },
  ...(['REDIS_PASSWORD', 'REDIS_SENTINEL_PASSWORD'] as const).map(
    (variable): ProductionRule<RenderConfig> => ({
      variable,
      refuse: (config) =>
        config[variable] === COMMITTED_REDIS_PASSWORD
          ? 'is the committed development password'
          : undefined,
    }),
  ),
];

/** Returns `config`, or throws a ConfigError naming each setting production refuses. */
export function refuseDevelopmentSettings(
  config: RenderConfig,
  env: Readonly<Record<string, string | undefined>>,
): RenderConfig {
  return guardProduction('render service', config, env, RULES);
}
