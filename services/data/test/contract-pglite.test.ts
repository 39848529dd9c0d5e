import { pino } from 'pino';
import { loadDataConfig, startDataService } from '../src/index.js';
import { runCatalogContract } from './catalog-contract.js';

// The contract with PGlite on the gRPC thread (PGLITE_WORKER=false); the worker, the default,
// has its own file.
runCatalogContract('PGlite on the gRPC thread', () =>
  startDataService(
    loadDataConfig({
      DATA_PORT: '0',
      DATA_DIR: 'memory://',
      PGLITE_WORKER: 'false',
      PAGE_TOKEN_SECRET: 'test-secret-0123456789',
    }),
    pino({ level: 'silent' }),
  ),
);
