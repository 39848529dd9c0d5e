import { startTestPostgres, type TestPostgres } from '@strata/testing';
import { pino } from 'pino';
import { afterAll } from 'vitest';
import { loadDataConfig, startDataService } from '../src/index.js';
import { runCatalogContract } from './catalog-contract.js';

let postgres: TestPostgres | undefined;
afterAll(async () => postgres?.stop());

runCatalogContract('PostgreSQL 15', async () => {
  postgres = await startTestPostgres();
  return startDataService(
    loadDataConfig({
      DATA_PORT: '0',
      DATABASE_URL: await postgres.createDatabase(),
      PAGE_TOKEN_SECRET: 'test-secret-0123456789',
    }),
    pino({ level: 'silent' }),
  );
});
