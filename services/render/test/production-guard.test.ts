/**
 * The render service refuses to start in production mode on development settings: through
 * `loadRenderConfig` and the guard, as main.ts runs them, with the committed .env's values.
 */
import { ConfigError } from '@strata/config';
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadRenderConfig } from '../src/index.js';
import { refuseDevelopmentSettings } from '../src/production-guard.js';

const committed = parseEnv(readFileSync(new URL('../../../.env', import.meta.url), 'utf8'));

/** What docker-compose.yml gives a replica from the committed .env, plus the image's NODE_ENV. */
const composeEnv = {
  NODE_ENV: 'production',
  PUBLIC_ORIGINS: committed['PUBLIC_ORIGINS'],
  ACTION_SALT: committed['ACTION_SALT'],
  REDIS_URL: `redis://:${committed['REDIS_PASSWORD']}@redis:6379`,
};

const production = {
  NODE_ENV: 'production',
  PUBLIC_ORIGINS: 'https://shop.example',
  ACTION_SALT: 'a-real-salt-nobody-committed',
  REDIS_URL: 'redis://:a-real-redis-password@redis:6379',
};

function refusedVariables(env: Record<string, string | undefined>): string[] {
  try {
    refuseDevelopmentSettings(loadRenderConfig(env), env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.split(':')[0] ?? '');
    throw error;
  }
  return [];
}

describe('the render service in production mode', () => {
  it('refuses every development secret of the committed .env, naming each variable', () => {
    expect(refusedVariables(composeEnv)).toEqual(['ACTION_SALT', 'REDIS_URL']);
  });

  it('refuses its own development salt (ACTION_SALT unset) and a missing PUBLIC_ORIGINS', () => {
    expect(
      refusedVariables({ ...production, ACTION_SALT: undefined, PUBLIC_ORIGINS: undefined }),
    ).toEqual(['ACTION_SALT', 'PUBLIC_ORIGINS']);
  });

  it('refuses the committed Redis password as a Sentinel group’s data or sentinel password', () => {
    const sentinel = { ...production, REDIS_URL: undefined, REDIS_SENTINELS: 'sentinel-1' };
    const committedPassword = committed['REDIS_PASSWORD'] ?? '';
    expect(
      refusedVariables({
        ...sentinel,
        REDIS_PASSWORD: committedPassword,
        REDIS_SENTINEL_PASSWORD: committedPassword,
      }),
    ).toEqual(['REDIS_PASSWORD', 'REDIS_SENTINEL_PASSWORD']);
    expect(
      refusedVariables({
        ...sentinel,
        REDIS_PASSWORD: 'real-one',
        REDIS_SENTINEL_PASSWORD: 'real-two',
      }),
    ).toEqual([]);
  });

  it('starts with real settings, from plain variables or secret files', () => {
    expect(refusedVariables(production)).toEqual([]);
    expect(refusedVariables({ ...production, REDIS_URL: undefined })).toEqual([]);
  });

  it('lets the committed values through with the explicit opt-out, and outside production', () => {
    expect(refusedVariables({ ...composeEnv, STRATA_ALLOW_DEVELOPMENT_SECRETS: 'true' })).toEqual(
      [],
    );
    expect(refusedVariables({ ...composeEnv, NODE_ENV: undefined })).toEqual([]);
  });

  it('the committed .env opts out, so `docker-compose up` works from a fresh clone', () => {
    expect(committed['STRATA_ALLOW_DEVELOPMENT_SECRETS']).toBe('true');
  });
});
