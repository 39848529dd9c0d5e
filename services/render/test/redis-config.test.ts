/**
 * How the render service's configuration reaches Redis: one server by REDIS_URL, or a Sentinel
 * group by REDIS_SENTINELS with its master name, passwords and TLS; never both, and the Sentinel
 * settings only with REDIS_SENTINELS, each mistake a ConfigError that names the variables and
 * never shows a password.
 */
import { ConfigError } from '@strata/config';
import { describe, expect, it } from 'vitest';
import { loadRenderConfig } from '../src/index.js';
import { segmentCacheSettings } from '../src/segment-cache/cache-settings.js';

const problemsOf = (env: Record<string, string>): readonly string[] => {
  try {
    loadRenderConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('the segment cache’s Redis settings', () => {
  it('reaches a Sentinel group: addresses (26379 by default), master, passwords, TLS', () => {
    const config = loadRenderConfig({
      REDIS_SENTINELS: 'sentinel-1, sentinel-2:26380,[fd00::7]:26381',
      REDIS_SENTINEL_MASTER: 'cache',
      REDIS_PASSWORD: 'data-secret',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
      REDIS_TLS: 'true',
    });
    expect(segmentCacheSettings(config, 'b1').redis).toEqual({
      sentinels: [
        { host: 'sentinel-1', port: 26379 },
        { host: 'sentinel-2', port: 26380 },
        { host: 'fd00::7', port: 26381 },
      ],
      masterName: 'cache',
      password: 'data-secret',
      sentinelPassword: 'sentinel-secret',
      tls: true,
      sentinelTls: false,
    });
  });

  it('reaches one Redis by URL, or none (the in-process store)', () => {
    const byUrl = loadRenderConfig({ REDIS_URL: 'redis://:pw@redis:6379' });
    expect(segmentCacheSettings(byUrl, 'b1').redis).toEqual({ url: 'redis://:pw@redis:6379' });
    expect(segmentCacheSettings(loadRenderConfig({}), 'b1').redis).toBeUndefined();
  });

  it('refuses REDIS_URL and REDIS_SENTINELS together, naming both', () => {
    const problems = problemsOf({
      REDIS_URL: 'redis://:secret-in-url@redis:6379',
      REDIS_SENTINELS: 'sentinel-1',
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^REDIS_SENTINELS: REDIS_URL and REDIS_SENTINELS are exclusive/);
    expect(problems[0]).not.toContain('secret-in-url');
  });

  it('refuses Sentinel settings without REDIS_SENTINELS, without showing the passwords', () => {
    const problems = problemsOf({
      REDIS_URL: 'redis://redis:6379',
      REDIS_PASSWORD: 'data-secret',
      REDIS_SENTINEL_TLS: 'true',
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(
      'REDIS_PASSWORD, REDIS_SENTINEL_TLS only apply with REDIS_SENTINELS',
    );
    expect(problems.join('\n')).not.toContain('data-secret');
  });

  it('refuses a malformed sentinel address', () => {
    expect(problemsOf({ REDIS_SENTINELS: 'sentinel-1:99999' })).toEqual([
      expect.stringMatching(/^REDIS_SENTINELS: "sentinel-1:99999" is not host\[:port\]/),
    ]);
  });
});
