/**
 * The data service refuses to start in production mode on development settings: through
 * `loadDataConfig` and the guard, as main.ts runs them, with the committed .env's values.
 */
import { ConfigError } from '@strata/config';
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadDataConfig } from '../src/index.js';
import { refuseDevelopmentSettings } from '../src/production-guard.js';

const committed = parseEnv(readFileSync(new URL('../../../.env', import.meta.url), 'utf8'));

/** What docker-compose.yml gives the data service from the committed .env, plus NODE_ENV. */
const composeEnv = {
  NODE_ENV: 'production',
  DATABASE_URL: `postgres://${committed['POSTGRES_USER']}:${committed['POSTGRES_PASSWORD']}@postgres:5432/${committed['POSTGRES_DB']}`,
  PAGE_TOKEN_SECRET: committed['PAGE_TOKEN_SECRET'],
};

const production = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://strata:a-real-password@postgres:5432/strata',
  PAGE_TOKEN_SECRET: 'a-real-page-token-secret-0123',
};

function refusedVariables(env: Record<string, string | undefined>): string[] {
  try {
    refuseDevelopmentSettings(loadDataConfig(env), env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.split(':')[0] ?? '');
    throw error;
  }
  return [];
}

describe('the data service in production mode', () => {
  it('refuses every development secret of the committed .env, naming each variable', () => {
    expect(refusedVariables(composeEnv)).toEqual(['PAGE_TOKEN_SECRET', 'DATABASE_URL']);
  });

  it('refuses its own development page-token key (PAGE_TOKEN_SECRET unset)', () => {
    expect(refusedVariables({ ...production, PAGE_TOKEN_SECRET: undefined })).toEqual([
      'PAGE_TOKEN_SECRET',
    ]);
  });

  it('starts with real settings', () => {
    expect(refusedVariables(production)).toEqual([]);
  });

  it('lets the committed values through with the explicit opt-out, and outside production', () => {
    expect(refusedVariables({ ...composeEnv, STRATA_ALLOW_DEVELOPMENT_SECRETS: 'true' })).toEqual(
      [],
    );
    expect(refusedVariables({ ...composeEnv, NODE_ENV: 'test' })).toEqual([]);
  });
});
