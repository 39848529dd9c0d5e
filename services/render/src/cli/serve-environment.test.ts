import { describe, expect, it } from 'vitest';
import { UsageError } from './cli-args.js';
import { serveEnvironment, servePort } from './serve-environment.js';

describe('servePort', () => {
  it('prefers --port, then PORT, then RENDER_PORT, then 3000', () => {
    expect(servePort(4000, { PORT: '5000' })).toBe(4000);
    expect(servePort(undefined, { PORT: '5000', RENDER_PORT: '6000' })).toBe(5000);
    expect(servePort(undefined, { RENDER_PORT: '6000' })).toBe(6000);
    expect(servePort(undefined, {})).toBe(3000);
  });

  it('refuses a PORT that is no port', () => {
    expect(() => servePort(undefined, { PORT: 'eighty' })).toThrow(UsageError);
  });
});

describe('serveEnvironment', () => {
  it('serves the folder’s own package in the mode asked for', () => {
    expect(
      serveEnvironment({ name: 'my-app', directory: '/apps/mine' }, 3100, 'production'),
    ).toEqual({
      RENDER_APP: 'my-app',
      RENDER_APP_ROOT: '/apps/mine',
      RENDER_PORT: '3100',
      NODE_ENV: 'production',
    });
  });
});
