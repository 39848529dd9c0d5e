import { pino } from 'pino';
import { loadDataConfig, startDataService } from '../src/index.js';
import { runCatalogContract } from './catalog-contract.js';

runCatalogContract('PGlite', () =>
  startDataService(
    loadDataConfig({
      DATA_PORT: '0',
      DATA_DIR: 'memory://',
      PAGE_TOKEN_SECRET: 'test-secret-0123456789',
    }),
    pino({ level: 'silent' }),
  ),
);
