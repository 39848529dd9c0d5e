import { loadDataConfig, startDataService, type RunningDataService } from '@strata/data';
import { matchRoute } from '@strata/web';
import type { AppHost, RunningApp } from '@strata/web/server';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogServices } from '@strata/app-catalog';
import { createBenchApp } from './bench-app.js';
import clientRoutes from './client.js';

const silent = pino({ level: 'silent' });
const host = (env: Record<string, string>): AppHost => ({ env, logger: silent });
const request = { headers: {}, traceId: '0'.repeat(31) + '1', requestId: 'req-1' };

describe('the bench app', () => {
  let data: RunningDataService;
  let running: RunningApp<CatalogServices>;

  beforeAll(async () => {
    data = await startDataService(
      loadDataConfig({ DATA_PORT: '0', DATA_DIR: 'memory://' }),
      silent,
    );
    running = await createBenchApp().start(host({ DATA_SERVICE_ADDRESS: data.address }));
  });
  afterAll(async () => {
    await running?.close();
    await data?.stop();
  });

  it('is named for logs apart from the catalogue, with its actions', () => {
    const app = createBenchApp();
    expect(app.name).toBe('bench');
    expect(app.actions?.length).toBeGreaterThan(0);
  });

  it('serves the benchmark pages and the catalogue’s', () => {
    expect(matchRoute(running.routes, '/bench/items')?.route.id).toBe('bench-items');
    expect(matchRoute(running.routes, '/bench/items/7')?.route.id).toBe('bench-item');
    expect(matchRoute(running.routes, '/items')).not.toBeNull();
    expect(matchRoute(running.routes, '/account')).not.toBeNull();
  });

  it('leaves the drill pages to the catalogue’s setting', async () => {
    expect(matchRoute(running.routes, '/errors/server')).toBeNull();
    const drills = await createBenchApp().start(
      host({ DATA_SERVICE_ADDRESS: data.address, RENDER_ERROR_DRILLS: 'true' }),
    );
    try {
      expect(matchRoute(drills.routes, '/errors/server')).not.toBeNull();
    } finally {
      await drills.close();
    }
  });

  it('gives the browser bundle every segment the server renders', () => {
    const missing = [...running.routes.byId.keys()].filter((id) => !clientRoutes.byId.has(id));
    expect(missing).toEqual([]);
  });

  it('loads the benchmark list through the catalogue’s gateway', async () => {
    const page = await running.servicesFor(request).catalog.listItems({ pageSize: 5 });
    expect(page.items.length).toBe(5);
  });
});
