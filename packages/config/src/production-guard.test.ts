import { describe, expect, it } from 'vitest';
import { ConfigError } from './load-config.js';
import {
  DEVELOPMENT_OPT_OUT,
  guardProduction,
  notDevelopmentSecret,
  requiredInProduction,
} from './production-guard.js';

interface AppConfig {
  readonly SALT?: string;
  readonly ORIGINS: readonly string[];
}

const rules = [
  notDevelopmentSecret<AppConfig>('SALT', (config) => config.SALT, ['committed-dev-salt']),
  requiredInProduction<AppConfig>('ORIGINS', (config) => config.ORIGINS),
];

function problemsOf(config: AppConfig, env: Record<string, string>): readonly string[] {
  try {
    guardProduction('app', config, env, rules);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

const PRODUCTION = { NODE_ENV: 'production' };

describe('the production guard', () => {
  it('refuses an unset secret, a committed one and a missing setting, naming each variable', () => {
    const unset = problemsOf({ ORIGINS: [] }, PRODUCTION);
    expect(unset).toHaveLength(2);
    expect(unset[0]).toMatch(
      /^SALT: is unset, so a development value is used; NODE_ENV=production/,
    );
    expect(unset[1]).toMatch(/^ORIGINS: must be set in production/);
    expect(problemsOf({ SALT: 'committed-dev-salt', ORIGINS: ['https://a'] }, PRODUCTION)).toEqual([
      expect.stringMatching(/^SALT: is a committed development value;/),
    ]);
  });

  it('says how to opt out for a local run', () => {
    expect(problemsOf({ ORIGINS: ['https://a'] }, PRODUCTION)[0]).toContain(
      `${DEVELOPMENT_OPT_OUT}=true for a local run`,
    );
  });

  it('lets real settings through', () => {
    const config = { SALT: 'a-real-salt-value', ORIGINS: ['https://a'] };
    expect(guardProduction('app', config, PRODUCTION, rules)).toBe(config);
  });

  it('checks nothing outside production mode', () => {
    expect(problemsOf({ ORIGINS: [] }, {})).toEqual([]);
    expect(problemsOf({ ORIGINS: [] }, { NODE_ENV: 'development' })).toEqual([]);
  });

  it('lets development values through only when the opt-out says so', () => {
    expect(problemsOf({ ORIGINS: [] }, { ...PRODUCTION, [DEVELOPMENT_OPT_OUT]: 'true' })).toEqual(
      [],
    );
    for (const value of ['', 'false', '0', 'maybe'])
      expect(
        problemsOf({ ORIGINS: [] }, { ...PRODUCTION, [DEVELOPMENT_OPT_OUT]: value }),
      ).toHaveLength(2);
  });
});
