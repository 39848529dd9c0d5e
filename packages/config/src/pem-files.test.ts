import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pemFile, requireTogether } from './env-parsers.js';
import { loadConfig } from './load-config.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const files: Record<string, string> = {
  '/tls/cert.pem': PEM,
  '/tls/key.pem': PEM,
  '/tls/notes.txt': 'hello',
};
const readFile = (path: string) => {
  const text = files[path];
  if (text === undefined) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
  return text;
};
const schema = z
  .object({ TLS_CERT: pemFile(readFile), TLS_KEY: pemFile(readFile) })
  .superRefine((config, ctx) => requireTogether(config, ['TLS_CERT', 'TLS_KEY'], ctx));
const load = (env: Record<string, string>) => loadConfig('test service', schema, env);

describe('PEM files and settings that go together', () => {
  it('reads both files, or neither', () => {
    expect(load({ TLS_CERT: '/tls/cert.pem', TLS_KEY: '/tls/key.pem' })).toEqual({
      TLS_CERT: PEM,
      TLS_KEY: PEM,
    });
    expect(load({})).toEqual({ TLS_CERT: undefined, TLS_KEY: undefined });
  });

  it('names the variable of a missing, unreadable or non-PEM file, and half a pair', () => {
    expect(() => load({ TLS_CERT: '/tls/cert.pem' })).toThrow(/TLS_KEY.*goes with TLS_CERT/);
    expect(() => load({ TLS_CERT: '/tls/gone.pem', TLS_KEY: '/tls/key.pem' })).toThrow(
      /TLS_CERT.*cannot read "\/tls\/gone.pem" \(ENOENT\)/,
    );
    expect(() => load({ TLS_CERT: '/tls/notes.txt', TLS_KEY: '/tls/key.pem' })).toThrow(
      /TLS_CERT.*"\/tls\/notes.txt" is not a PEM file/,
    );
  });
});
