import { ConfigError } from '@strata/config';
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadRelayConfig, withDevDefaults } from './config.js';
import { refuseDevelopmentSettings } from './production-guard.js';

const committed = parseEnv(readFileSync(new URL('../../../.env', import.meta.url), 'utf8'));

function refusedVariables(env: Record<string, string | undefined>): string[] {
  try {
    refuseDevelopmentSettings(loadRelayConfig(env), env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => p.split(':')[0] ?? '');
    throw error;
  }
  return [];
}

describe('the relay in production mode', () => {
  it('refuses the committed .env DSN and npm start’s, naming RELAY_DSNS', () => {
    expect(
      refusedVariables({ NODE_ENV: 'production', RELAY_DSNS: committed['RELAY_DSNS'] }),
    ).toEqual(['RELAY_DSNS']);
    expect(refusedVariables({ ...withDevDefaults({}), NODE_ENV: 'production' })).toEqual([
      'RELAY_DSNS',
    ]);
    expect(
      refusedVariables({
        NODE_ENV: 'production',
        RELAY_DSNS: `https://real0key@o1.ingest.example/2,${committed['RELAY_DSNS']}`,
      }),
    ).toEqual(['RELAY_DSNS']);
  });

  it('starts with its own DSNs, and with the explicit opt-out', () => {
    expect(
      refusedVariables({
        NODE_ENV: 'production',
        RELAY_DSNS: 'https://real0key@o1.ingest.example/2',
      }),
    ).toEqual([]);
    expect(
      refusedVariables({
        NODE_ENV: 'production',
        RELAY_DSNS: committed['RELAY_DSNS'],
        STRATA_ALLOW_DEVELOPMENT_SECRETS: 'true',
      }),
    ).toEqual([]);
  });
});
