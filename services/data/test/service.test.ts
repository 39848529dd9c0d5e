/**
 * The data service as operators and tools see it: health, reflection, restarts, migrations,
 * shutdown and configuration errors (PGlite; the contract suite covers both engines).
 */
import { ConfigError } from '@strata/config';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDataConfig, startDataService } from '../src/index.js';
import { migrate } from '../src/storage/migrate.js';
import { MIGRATIONS } from '../src/storage/migrations.js';
import { createTestClient } from './harness/catalog-client.js';
import { checkHealth, reflect } from './harness/standard-clients.js';
import { collectChanges } from './harness/watch-collector.js';

const silent = pino({ level: 'silent' });
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'strata-data-'));
  dirs.push(dir);
  return dir;
}

const start = (env: Record<string, string>) =>
  startDataService(loadDataConfig({ DATA_PORT: '0', DATA_DIR: 'memory://', ...env }), silent);

describe('data service', () => {
  it('reports SERVING on the standard health service', async () => {
    const service = await start({});
    try {
      expect(await checkHealth(service.address)).toBe('SERVING');
      expect(await checkHealth(service.address, 'strata.catalog.v1.CatalogService')).toBe(
        'SERVING',
      );
    } finally {
      await service.stop();
    }
  });

  it('lists and describes its services through reflection, like grpcurl', async () => {
    const service = await start({});
    try {
      const listed = await reflect(service.address, { listServices: '' });
      const names = (listed['listServicesResponse'] as { service: { name: string }[] }).service.map(
        (s) => s.name,
      );
      expect(names).toContain('strata.catalog.v1.CatalogService');
      const described = await reflect(service.address, {
        fileContainingSymbol: 'strata.catalog.v1.CatalogService',
      });
      const files = (described['fileDescriptorResponse'] as { fileDescriptorProto: Buffer[] })
        .fileDescriptorProto;
      expect(Buffer.concat(files).toString('latin1')).toContain('WatchChanges');
    } finally {
      await service.stop();
    }
  });

  it('keeps its data across restarts on the same directory, seeding and migrating once', async () => {
    const dir = tempDir();
    const first = await start({ DATA_DIR: dir });
    const client = createTestClient(first.address);
    const created = await client.createItem({
      title: 'Survivor',
      priceCents: 1,
      categoryId: 'cat-1',
      description: '',
    });
    client.close();
    await first.stop();

    const second = await start({ DATA_DIR: dir });
    try {
      const again = createTestClient(second.address);
      expect((await again.getItem({ id: created.item?.id ?? 0 })).item?.title).toBe('Survivor');
      const page = await again.listItems({ categoryId: 'cat-1', pageSize: 100 });
      expect(page.items.filter((item) => item.title === 'Item 1')).toHaveLength(1);
      expect(await migrate(second.database)).toEqual([]);
      again.close();
    } finally {
      await second.stop();
    }
  });

  it('refuses to start on a database whose applied migration was edited', async () => {
    const service = await start({});
    try {
      const edited = MIGRATIONS.map((m) =>
        m.version === 1 ? { ...m, sql: `${m.sql}\n-- edited` } : m,
      );
      await expect(migrate(service.database, edited)).rejects.toThrow(
        /Migration 1 \(catalog\) was edited/,
      );
    } finally {
      await service.stop();
    }
  });

  it('ends open WatchChanges streams and stops within the grace period', async () => {
    const service = await start({ DATA_SHUTDOWN_GRACE: '2s' });
    const client = createTestClient(service.address);
    const watch = collectChanges(client);
    await watch.ready;
    const started = Date.now();
    await service.stop();
    expect(await watch.ended).toBe(0);
    // Ending the streams lets the server drain at once instead of waiting out the grace period.
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await checkHealth(service.address).catch(() => 'UNREACHABLE')).toBe('UNREACHABLE');
    client.close();
  });

  it('names every bad variable at once when the configuration is invalid', () => {
    let error: unknown;
    try {
      loadDataConfig({ DATA_PORT: 'http', DATABASE_URL: 'mysql://x', PAGE_TOKEN_SECRET: 'short' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const keys = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(keys.sort()).toEqual(['DATABASE_URL', 'DATA_PORT', 'PAGE_TOKEN_SECRET']);
  });
});
