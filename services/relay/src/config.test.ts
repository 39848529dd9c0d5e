import { ConfigError } from '@strata/config';
import { describe, expect, it } from 'vitest';
import { loadRelayConfig, withDevDefaults } from './config.js';
import { createProcessOptions } from './project-options.js';

describe('loadRelayConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadRelayConfig({});
    expect(config).toMatchObject({
      RELAY_PORT: 3100,
      RELAY_TUNNEL_PATH: '/monitoring',
      RELAY_MAX_IN_FLIGHT: 64,
      RELAY_UPSTREAM_KIND: 'sentry',
      RELAY_SPOOL_MAX_AGE: 86_400_000,
      RELAY_FILTERS: [
        'script-error',
        'resize-observer',
        'redirect-error',
        'incomplete-navigation',
        'not-found-transaction',
      ],
      RELAY_MAX_VALUE_LENGTH: 250,
    });
  });

  it('reads the shared Redis as the render service does: a URL or sentinels, never both', () => {
    expect(loadRelayConfig({}).REDIS_URL).toBeUndefined();
    const sentinels = loadRelayConfig({
      REDIS_SENTINELS: 'sentinel-1,sentinel-2:26380',
      REDIS_PASSWORD: 'secret',
      RELAY_REPLICAS: '3',
    });
    expect(sentinels.REDIS_SENTINELS).toEqual([
      { host: 'sentinel-1', port: 26379 },
      { host: 'sentinel-2', port: 26380 },
    ]);
    expect(sentinels.RELAY_REPLICAS).toBe(3);
    expect(() =>
      loadRelayConfig({ REDIS_URL: 'redis://cache:6379', REDIS_SENTINELS: 'sentinel-1' }),
    ).toThrow(/REDIS_SENTINELS: REDIS_URL and REDIS_SENTINELS are exclusive/);
    expect(() => loadRelayConfig({ REDIS_PASSWORD: 'secret' })).toThrow(
      /REDIS_PASSWORD only apply with REDIS_SENTINELS/,
    );
    expect(() => loadRelayConfig({ RELAY_REPLICAS: '0' })).toThrow(/RELAY_REPLICAS/);
  });

  it('reads a shared spool: off by default, a lease of at least 2s, a plain instance name', () => {
    const defaults = loadRelayConfig({});
    expect([defaults.RELAY_SPOOL_SHARED, defaults.RELAY_SPOOL_LEASE_STALE]).toEqual([
      false,
      30_000,
    ]);
    expect(defaults.RELAY_INSTANCE_ID).toBeUndefined();
    const shared = loadRelayConfig({
      RELAY_SPOOL_SHARED: 'true',
      RELAY_SPOOL_LEASE_STALE: '5s',
      RELAY_INSTANCE_ID: 'relay-2',
    });
    expect([shared.RELAY_SPOOL_SHARED, shared.RELAY_SPOOL_LEASE_STALE]).toEqual([true, 5000]);
    expect(shared.RELAY_INSTANCE_ID).toBe('relay-2');
    expect(() => loadRelayConfig({ RELAY_SPOOL_LEASE_STALE: '1s' })).toThrow(
      /RELAY_SPOOL_LEASE_STALE: must be at least 2s/,
    );
    expect(() => loadRelayConfig({ RELAY_INSTANCE_ID: '../slot' })).toThrow(/RELAY_INSTANCE_ID/);
  });

  it('reports every bad variable at once', () => {
    let caught: unknown;
    try {
      loadRelayConfig({
        RELAY_DSNS: 'https://ok@host/1,not-a-dsn',
        RELAY_FILTERS: 'script-error,nope',
        RELAY_PROJECT_OPTIONS: '{"1":{"filters":["x"]}}',
        RELAY_TUNNEL_PATH: 'monitoring',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems.join('\n');
    expect(problems).toMatch(/RELAY_DSNS: every entry must be a DSN/);
    expect(problems).toMatch(/RELAY_FILTERS: unknown filter/);
    expect(problems).toMatch(/RELAY_PROJECT_OPTIONS: 1\.filters\.0/);
    expect(problems).toMatch(/RELAY_TUNNEL_PATH/);
  });

  it('takes the per-DSN spool share as a fraction above 0 and at most 1 (default one half)', () => {
    expect(loadRelayConfig({}).RELAY_SPOOL_PROJECT_SHARE).toBe(0.5);
    expect(loadRelayConfig({ RELAY_SPOOL_PROJECT_SHARE: '0.25' }).RELAY_SPOOL_PROJECT_SHARE).toBe(
      0.25,
    );
    for (const bad of ['0', '1.5', 'half']) {
      expect(() => loadRelayConfig({ RELAY_SPOOL_PROJECT_SHARE: bad })).toThrow(
        /RELAY_SPOOL_PROJECT_SHARE/,
      );
    }
  });

  it('splits glob lists on | so {a,b} alternatives survive', () => {
    expect(
      loadRelayConfig({ RELAY_FILTER_ERROR_MESSAGES: 'ChunkLoadError*|*invariant={418,419}*' })
        .RELAY_FILTER_ERROR_MESSAGES,
    ).toEqual(['ChunkLoadError*', '*invariant={418,419}*']);
  });

  it('lets the environment win over npm start defaults', () => {
    const env = withDevDefaults({ RELAY_DSNS: 'https://mine@host/9', RELAY_PORT: '' });
    expect(env).toMatchObject({
      RELAY_DSNS: 'https://mine@host/9',
      RELAY_UPSTREAM_KIND: 'spotlight',
    });
    expect(loadRelayConfig(env).RELAY_UPSTREAM).toBe('http://localhost:8969');
  });
});

describe('createProcessOptions', () => {
  it('overrides filters per project and keeps the relay-wide ones elsewhere', () => {
    const config = loadRelayConfig({
      RELAY_PROJECT_OPTIONS:
        '{"7":{"filters":["web-crawlers"],"errorMessages":["boom*"],"scrubPii":true}}',
    });
    const options = createProcessOptions(config);
    expect([...options('7').filterConfig.enabled]).toEqual(['web-crawlers']);
    expect(options('7').filterConfig.errorMessages).toEqual(['boom*']);
    expect(options('7').scrubPii).toBe(true);
    expect(options('8').filterConfig.enabled.has('script-error')).toBe(true);
    expect(options('8').scrubPii).toBe(false);
  });
});
