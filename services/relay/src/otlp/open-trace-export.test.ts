import { ConfigError } from '@strata/config';
import { describe, expect, it } from 'vitest';
import { loadRelayConfig } from '../config.js';
import { openTraceExport, otlpHeaders } from './open-trace-export.js';

const metrics = { otlpExported: () => undefined, otlpDropped: () => undefined };

function recordingLog() {
  const lines: Array<[object, string]> = [];
  return { lines, warn: (details: object, message: string) => lines.push([details, message]) };
}

describe('the RELAY_OTLP_* settings', () => {
  it('read RELAY_OTLP_HEADERS as name=value pairs, names lowercased, values kept whole', () => {
    const config = loadRelayConfig({
      RELAY_OTLP_TRACES_URL: 'https://collector.example:4318/v1/traces',
      RELAY_OTLP_HEADERS: 'Authorization=Bearer a=b, x-scope-orgid = team-1',
    });
    expect(otlpHeaders(config.RELAY_OTLP_HEADERS)).toEqual({
      authorization: 'Bearer a=b',
      'x-scope-orgid': 'team-1',
    });
    expect(config.RELAY_OTLP_ONLY).toBe(false);
    expect(config.RELAY_OTLP_TIMEOUT).toBe(10_000);
  });

  it('refuse an entry that is not name=value, and a URL that is not http(s)', () => {
    expect(() => loadRelayConfig({ RELAY_OTLP_HEADERS: 'Bearer token' })).toThrow(ConfigError);
    expect(() => loadRelayConfig({ RELAY_OTLP_HEADERS: 'bad name=x' })).toThrow(ConfigError);
    expect(() => loadRelayConfig({ RELAY_OTLP_TRACES_URL: 'grpc://collector:4317' })).toThrow(
      /RELAY_OTLP_TRACES_URL/,
    );
  });
});

describe('openTraceExport', () => {
  it('is off without an endpoint; RELAY_OTLP_ONLY alone is refused', async () => {
    const log = recordingLog();
    expect(openTraceExport(loadRelayConfig({}), metrics, log)).toBeUndefined();
    expect(log.lines).toEqual([]);
    expect(() => loadRelayConfig({ RELAY_OTLP_ONLY: 'true' })).toThrow(
      /RELAY_OTLP_ONLY: needs RELAY_OTLP_TRACES_URL/,
    );
  });

  it('opens an export that follows RELAY_OTLP_ONLY', async () => {
    const config = loadRelayConfig({
      RELAY_OTLP_TRACES_URL: 'http://127.0.0.1:9/v1/traces',
      RELAY_OTLP_ONLY: 'true',
    });
    const traces = openTraceExport(config, metrics, recordingLog())!;
    expect(traces.only).toBe(true);
    await traces.close(100);
  });
});
