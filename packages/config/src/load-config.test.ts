import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bool, csvList, durationMs, port } from './env-parsers.js';
import { ConfigError, describeConfig, loadConfig } from './load-config.js';

const schema = z.object({
  APP_PORT: port(3000).describe('Port to listen on'),
  APP_TIMEOUT: durationMs('5s').describe('Request timeout'),
  APP_DEBUG: bool(false),
  APP_ORIGINS: csvList(),
});

describe('loadConfig', () => {
  it('applies defaults and parses units', () => {
    const config = loadConfig('app', schema, { APP_TIMEOUT: '250ms', APP_ORIGINS: 'a, b,,c' });
    expect(config).toEqual({
      APP_PORT: 3000,
      APP_TIMEOUT: 250,
      APP_DEBUG: false,
      APP_ORIGINS: ['a', 'b', 'c'],
    });
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig('app', schema, { APP_PORT: '' }).APP_PORT).toBe(3000);
  });

  it('reports every bad key at once, with the offending value', () => {
    let caught: unknown;
    try {
      loadConfig('app', schema, { APP_PORT: '70000', APP_TIMEOUT: 'soon', APP_DEBUG: 'maybe' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(/APP_PORT: must be 0-65535 \(got "70000"\)/);
    expect(problems.join('\n')).toMatch(/APP_TIMEOUT: .*soon/);
    expect(problems.join('\n')).toMatch(/APP_DEBUG: .*maybe/);
  });

  it('returns a frozen object', () => {
    const config = loadConfig('app', schema, {});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.APP_ORIGINS)).toBe(true);
  });

  it('ignores variables outside the schema', () => {
    expect(Object.keys(loadConfig('app', schema, { OTHER: 'x' }))).not.toContain('OTHER');
  });
});

describe('durationMs', () => {
  it.each([
    ['1500', 1500],
    ['2s', 2000],
    ['1.5s', 1500],
    ['2m', 120_000],
    ['1h', 3_600_000],
  ])('parses %s as %d ms', (raw, expected) => {
    expect(durationMs('0').parse(raw)).toBe(expected);
  });

  it.each(['-1s', '5 minutes', 'abc'])('rejects %s', (raw) => {
    expect(durationMs('0').safeParse(raw).success).toBe(false);
  });
});

describe('describeConfig', () => {
  it('lists names, descriptions and defaults', () => {
    const docs = describeConfig(schema);
    expect(docs[0]).toEqual({
      name: 'APP_PORT',
      description: 'Port to listen on',
      defaultValue: '3000',
    });
    expect(docs.find((d) => d.name === 'APP_TIMEOUT')?.defaultValue).toBe('5000');
  });
});
