/**
 * What the data service refuses to run on with NODE_ENV=production (the image sets it): the
 * development page-token key (its own fallback or the committed .env value) and a DATABASE_URL
 * with the committed PostgreSQL password. The opt-out for local compose runs is
 * packages/config's STRATA_ALLOW_DEVELOPMENT_SECRETS.
 */
import { guardProduction, notDevelopmentSecret, type ProductionRule } from '@strata/config';
import { DEVELOPMENT_PAGE_TOKEN_SECRET, type DataConfig } from './config.js';

/** The values the committed .env gives the compose stack. */
const COMMITTED_PAGE_TOKEN_SECRET = 'compose-development-page-token-secret';
const COMMITTED_POSTGRES_PASSWORD = 'strata-development-password';

function databasePassword(config: DataConfig): string | undefined {
  if (!config.DATABASE_URL) return undefined;
  return decodeURIComponent(new URL(config.DATABASE_URL).password);
}

const RULES: readonly ProductionRule<DataConfig>[] = [
  notDevelopmentSecret('PAGE_TOKEN_SECRET', (config) => config.PAGE_TOKEN_SECRET, [
    DEVELOPMENT_PAGE_TOKEN_SECRET,
    COMMITTED_PAGE_TOKEN_SECRET,
  ]),
  {
    variable: 'DATABASE_URL',
    refuse: (config) =>
      databasePassword(config) === COMMITTED_POSTGRES_PASSWORD
        ? 'carries the committed development password'
        : undefined,
  },
];

/** Returns `config`, or throws a ConfigError naming each setting production refuses. */
export function refuseDevelopmentSettings(
  config: DataConfig,
  env: Readonly<Record<string, string | undefined>>,
): DataConfig {
  return guardProduction('data service', config, env, RULES);
}
