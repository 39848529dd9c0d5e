import { ConfigError } from '@strata/config';
import { loadDataConfig, startDataService, type RunningDataService } from '@strata/data';
import { matchRoute } from '@strata/web';
import type { AppHost, RunningApp } from '@strata/web/server';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogApp } from './catalog-app.js';
import type { AppServices } from './services.js';

const silent = pino({ level: 'silent' });
const host = (env: Record<string, string>): AppHost => ({ env, logger: silent });
const request = { headers: {}, traceId: '0'.repeat(31) + '1', requestId: 'req-1' };

describe('the catalogue app', () => {
  let data: RunningDataService;
  let running: RunningApp<AppServices>;

  beforeAll(async () => {
    data = await startDataService(
      loadDataConfig({ DATA_PORT: '0', DATA_DIR: 'memory://' }),
      silent,
    );
    running = await createCatalogApp().start(host({ DATA_SERVICE_ADDRESS: data.address }));
  });
  afterAll(async () => {
    await running?.close();
    await data?.stop();
  });

  it('refuses settings it cannot use, naming the variable', async () => {
    const started = createCatalogApp().start(host({ DATA_DEADLINE: 'soon' }));
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(/DATA_DEADLINE/);
  });

  it('is ready while a data replica answers, and says how many do', async () => {
    expect(await running.readiness?.()).toEqual({
      ready: true,
      details: { data: expect.objectContaining({ reachable: 1 }) },
    });
    const nowhere = await createCatalogApp().start(
      host({ DATA_SERVICE_ADDRESS: '127.0.0.1:1', DATA_DEADLINE: '200ms' }),
    );
    try {
      expect(await nowhere.readiness?.()).toMatchObject({
        ready: false,
        details: { data: { reachable: 0 } },
      });
    } finally {
      await nowhere.close();
    }
  });

  it('serves the drill pages only when configured, and never benchmark pages', async () => {
    expect(matchRoute(running.routes, '/errors/server')).toBeNull();
    const drills = await createCatalogApp().start(
      host({ DATA_SERVICE_ADDRESS: data.address, RENDER_ERROR_DRILLS: 'true' }),
    );
    try {
      expect(matchRoute(drills.routes, '/errors/server')).not.toBeNull();
      // The benchmark pages are the bench app's (apps/bench).
      expect(matchRoute(drills.routes, '/bench/items')).toBeNull();
    } finally {
      await drills.close();
    }
  });

  it('gives each request a gateway to the data service', async () => {
    const services = running.servicesFor(request);
    const { categories } = await services.catalog.listCategories();
    expect(categories.length).toBeGreaterThan(0);
  });

  it('reports the tags of a write made by anyone through its change feed', async () => {
    const seen: string[][] = [];
    const subscription = running.watchChanges?.({
      onTags: async (tags) => void seen.push([...tags]),
      onReset: async () => undefined,
    });
    try {
      // Give the subscription time to register before the write it must see.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const { categories } = await running.servicesFor(request).catalog.listCategories();
      const written = await running.servicesFor(request).catalog.createItem({
        title: 'Feed test',
        priceCents: 100,
        categoryId: categories[0]!.id,
        description: '',
      });
      const reported = () => seen.some((tags) => written.tags.every((tag) => tags.includes(tag)));
      const deadline = Date.now() + 10_000;
      while (!reported() && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(written.tags.length).toBeGreaterThan(0);
      expect(reported()).toBe(true);
    } finally {
      subscription?.stop();
    }
  });
});
