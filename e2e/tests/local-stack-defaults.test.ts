/**
 * What `npm start` gives each service when the environment says nothing, and that the
 * environment still wins (scripts/stack/services.mjs).
 */
import { describe, expect, it } from 'vitest';
import { serviceCatalog } from '../../scripts/stack/services.mjs';

const envOf = (env: Record<string, string>, name: string) =>
  serviceCatalog(env).find((service) => service.name === name)!.env;

describe('npm start: the data service', () => {
  it('runs PGlite on its gRPC thread, since the render service shares the machine', () => {
    expect(envOf({}, 'data')['PGLITE_WORKER']).toBe('false');
    expect(envOf({}, 'data')['DATA_DIR']).toBe('.data/pglite');
  });

  it('takes the worker thread when the environment asks for it', () => {
    expect(envOf({ PGLITE_WORKER: 'true' }, 'data')['PGLITE_WORKER']).toBe('true');
  });
});

describe('npm start: which services start', () => {
  const names = (env: Record<string, string>) =>
    serviceCatalog(env).map((service) => service.name + (service.after ? `<${service.after}` : ''));

  it('starts the data service before the render service for the catalogue', () => {
    expect(names({})).toEqual(['spotlight', 'relay', 'data', 'render<data']);
  });

  it('starts the data service first for the bench app, the catalogue plus /bench/*', () => {
    expect(names({ RENDER_APP: '@strata/app-bench' })).toContain('render<data');
  });

  it('leaves the data service out for the notes app, which keeps its notes in a file', () => {
    expect(names({ RENDER_APP: '@strata/app-notes' })).toEqual(['spotlight', 'relay', 'render']);
  });

  it('starts it for an app it does not know, in case that app reads it', () => {
    expect(names({ RENDER_APP: '@acme/app-shop' })).toContain('data');
  });
});

describe('npm start: the render service', () => {
  it('serves the failure drill pages, off by default elsewhere', () => {
    expect(envOf({}, 'render')['RENDER_ERROR_DRILLS']).toBe('true');
  });

  it('turns them off when the environment says so', () => {
    expect(envOf({ RENDER_ERROR_DRILLS: 'false' }, 'render')['RENDER_ERROR_DRILLS']).toBe('false');
  });

  it('serves the catalogue, and the benchmark pages only as the bench app', () => {
    expect(envOf({}, 'render')['RENDER_APP']).toBeUndefined();
    expect(envOf({}, 'render')['RENDER_BENCH_PAGES']).toBeUndefined();
  });
});
