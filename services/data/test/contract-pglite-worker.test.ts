import { pino } from 'pino';
import { loadDataConfig, startDataService } from '../src/index.js';
import { runCatalogContract } from './catalog-contract.js';

// The same contract with PGlite in its worker thread (PGLITE_WORKER=true, the default).
runCatalogContract('PGlite in a worker thread', () =>
  startDataService(
    loadDataConfig({
      DATA_PORT: '0',
      DATA_DIR: 'memory://',
      PGLITE_WORKER: 'true',
      PAGE_TOKEN_SECRET: 'test-secret-0123456789',
    }),
    pino({ level: 'silent' }),
  ),
);
