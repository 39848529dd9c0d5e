import { loadConfig } from '@strata/config';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { relayTunnelUrl, telemetryConfigFields } from './telemetry-config.js';

const schema = z.object(telemetryConfigFields);
const load = (env: Record<string, string>) => loadConfig('test', schema, env);

describe('telemetry config', () => {
  it('is off by default and points at the local relay', () => {
    const config = load({});
    expect(config.SENTRY_DSN).toBeUndefined();
    expect(relayTunnelUrl(config)).toBe('http://127.0.0.1:3100/monitoring');
    expect(config.SENTRY_TRACES_SAMPLE_RATE).toBe(1);
  });

  it('accepts Sentry DSNs, including self-hosted ones with a path', () => {
    for (const dsn of [
      'https://abc123@o1.ingest.sentry.io/42',
      'http://strata0dev0key@localhost:3100/1',
      'https://key@sentry.example.com/prefix/7',
    ])
      expect(load({ SENTRY_DSN: dsn }).SENTRY_DSN).toBe(dsn);
  });

  it('names every bad variable at once', () => {
    expect(() =>
      load({
        SENTRY_DSN: 'https://sentry.example.com/1',
        SENTRY_TRACES_SAMPLE_RATE: '1.5',
        RELAY_URL: 'ftp://relay',
        SENTRY_TUNNEL: 'monitoring',
      }),
    ).toThrow(/SENTRY_DSN[\s\S]*SENTRY_TRACES_SAMPLE_RATE[\s\S]*RELAY_URL[\s\S]*SENTRY_TUNNEL/);
  });

  it('joins the tunnel path to a relay URL with a path', () => {
    expect(
      relayTunnelUrl(load({ RELAY_URL: 'https://relay.internal:8443', SENTRY_TUNNEL: '/t' })),
    ).toBe('https://relay.internal:8443/t');
  });
});
