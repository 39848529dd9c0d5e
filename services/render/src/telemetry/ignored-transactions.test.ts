import { describe, expect, it } from 'vitest';
import { ignoredTransactions } from './ignored-transactions.js';

const ignored = (name: string, tunnel = '/monitoring') =>
  ignoredTransactions(tunnel).some((pattern) => pattern.test(name));

describe('ignoredTransactions', () => {
  it('drops the tunnel, probes, metrics and static files', () => {
    for (const name of [
      'POST /monitoring',
      'OPTIONS /monitoring',
      'GET /healthz',
      'GET /readyz',
      'GET /metrics',
      'GET /favicon.ico',
      'GET /assets/client-ABC.js',
    ])
      expect({ name, ignored: ignored(name) }).toEqual({ name, ignored: true });
  });

  it('keeps pages, payloads, actions and the API', () => {
    for (const name of ['GET /items/:id', 'POST /items/:id', 'GET /api/items', 'GET /monitoring/x'])
      expect({ name, ignored: ignored(name) }).toEqual({ name, ignored: false });
  });

  it('escapes the configured tunnel path', () => {
    expect(ignored('POST /t.x', '/t.x')).toBe(true);
    expect(ignored('POST /tyx', '/t.x')).toBe(false);
  });
});
