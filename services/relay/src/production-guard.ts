/**
 * What the relay refuses to run on with NODE_ENV=production (the image sets it): a DSN with one
 * of the development keys (the committed .env's, and npm start's), which anyone can read in the
 * repository. The opt-out for local compose runs is packages/config's
 * STRATA_ALLOW_DEVELOPMENT_SECRETS.
 */
import { guardProduction, type ProductionRule } from '@strata/config';
import type { RelayConfig } from './config.js';
import { parseDsn } from './dsn/dsn.js';

/** Public keys of the committed development DSNs. */
const DEVELOPMENT_DSN_KEYS = new Set(['strata0public0key', 'strata0dev0key']);

const RULES: readonly ProductionRule<RelayConfig>[] = [
  {
    variable: 'RELAY_DSNS',
    refuse: (config) =>
      config.RELAY_DSNS.some((dsn) => DEVELOPMENT_DSN_KEYS.has(parseDsn(dsn)?.publicKey ?? ''))
        ? 'lists a committed development DSN'
        : undefined,
  },
];

/** Returns `config`, or throws a ConfigError naming each setting production refuses. */
export function refuseDevelopmentSettings(
  config: RelayConfig,
  env: Readonly<Record<string, string | undefined>>,
): RelayConfig {
  return guardProduction('relay', config, env, RULES);
}
